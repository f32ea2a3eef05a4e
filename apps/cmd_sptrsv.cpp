// `apiary sptrsv`: sparse triangular solve with every variant (TASSL on the runtime,
// the paper's kernel-per-level form, level sets, sync-free, cuSPARSE), verified by the
// residual, with the TASSL analysis statistics and the comparison table.
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "apps/commands.hpp"
#include "apps/options.hpp"
#include "apps/matrix_source.hpp"
#include "runtime/device.hpp"
#include "tasks/sptrsv/compare.hpp"

namespace apiary::cli {

namespace {

struct SptrsvArgs {
  std::string matrix;
  std::string variant = "all";
  std::string scheduler = "megakernel";
  std::string precision = "double";
  std::string nmax = "auto";
  std::string threads = "auto";
  std::string split = "auto";
  bool lower = false, upper = false, unit = false, json = false, analysis_only = false;
  int rhs = 1;
  int reps = 5;
  double max_residual = 0;  // 0: by precision
};

std::vector<sptrsv::Variant> variants_of(const std::string& s) {
  if (s == "all") return {sptrsv::kVariants.begin(), sptrsv::kVariants.end()};
  std::vector<sptrsv::Variant> out;
  std::size_t start = 0;
  while (start <= s.size()) {
    const std::size_t comma = s.find(',', start);
    const std::string one = s.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const auto v = sptrsv::parse_variant(one);
    if (!v)
      throw std::invalid_argument("unknown variant '" + one +
                                  "' (tassl-deps, tassl-phases, tassl-kernels, levelset, syncfree, cusparse, "
                                  "a comma-separated list, or all)");
    out.push_back(*v);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

void run_sptrsv(const SptrsvArgs& args) {
  sptrsv::CompareOptions o;
  o.variants = variants_of(args.variant);
  o.schedulers = schedulers_of(args.scheduler);
  if (args.lower) o.system.take = sparse::Triangle::lower;
  if (args.upper) o.system.take = sparse::Triangle::upper;
  o.system.unit_diagonal = args.unit;
  if (args.precision == "float") {
    o.precision = sptrsv::Precision::single;
  } else if (args.precision != "double") {
    throw std::invalid_argument("unknown precision '" + args.precision + "' (float or double)");
  }
  if (args.nmax != "auto") {
    std::size_t used = 0;
    int v = 0;
    try {
      v = std::stoi(args.nmax, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != args.nmax.size() || v < 1)
      throw std::invalid_argument("--nmax takes a positive number or 'auto', got '" + args.nmax + "'");
    o.n_max = v;
  }
  if (args.threads == "256" || args.threads == "512") {
    o.threads = std::stoi(args.threads);
  } else if (args.threads != "auto") {
    throw std::invalid_argument("--threads takes 256, 512 or 'auto', got '" + args.threads + "'");
  }
  if (args.split != "auto") {
    o.split = sptrsv::parse_split(args.split);
    if (!o.split)
      throw std::invalid_argument("--split takes heuristic, bands, tiles or 'auto', got '" + args.split + "'");
  }
  o.rhs = args.rhs;
  o.reps = args.reps;
  // Input errors come first (they need no GPU); compare() then checks for a device.
  const LoadedMatrix m = load_matrix(args.matrix);
  if (args.analysis_only) {  // the host's part alone: no GPU needed
    const sptrsv::Comparison c = sptrsv::analysis_only(m.a, o);
    if (args.json) {
      nlohmann::json j = sptrsv::to_json(c);
      j.erase("results");
      j["matrix"] = m.name;
      fmt::print("{}\n", j.dump(2));
    } else {
      fmt::print("matrix   {}\n{}{}", m.name, sptrsv::format_comparison(c), sptrsv::format_candidates(c.analysis));
    }
    return;
  }
  const sptrsv::Comparison c = sptrsv::compare(m.a, o);
  if (args.json) {
    nlohmann::json j = sptrsv::to_json(c);
    j["matrix"] = m.name;
    j["device"] = describe(query_device());
    fmt::print("{}\n", j.dump(2));
  } else {
    fmt::print("device   {}\nmatrix   {}\n{}", describe(query_device()), m.name, sptrsv::format_comparison(c));
  }
  // A wrong answer or a failed variant is an error, not a table row to overlook.
  const double limit = args.max_residual > 0 ? args.max_residual : (args.precision == "float" ? 1e-4 : 1e-10);
  if (const auto error = sptrsv::result_error(c, limit)) throw std::runtime_error(*error);
}

}  // namespace

void add_sptrsv_command(CLI::App& app) {
  auto args = std::make_shared<SptrsvArgs>();
  CLI::App* cmd = app.add_subcommand(
      "sptrsv", "Sparse triangular solve: TASSL sub-graphs as tasks with dependencies, against level sets, "
                "sync-free and cuSPARSE");
  cmd->add_option("matrix", args->matrix, kMatrixArgumentHelp)->required();
  cmd->add_option("--variant", args->variant,
                  "tassl-deps, tassl-phases, tassl-kernels, levelset, syncfree, cusparse, a comma-separated list, "
                  "or all")
      ->capture_default_str();
  cmd->add_option("--scheduler", args->scheduler, "for the runtime variants: megakernel, timesliced, controller or all")
      ->capture_default_str();
  auto* lower = cmd->add_flag("--lower", args->lower, "solve with the lower triangle (the rest is ignored)");
  cmd->add_flag("--upper", args->upper, "solve with the upper triangle (the rest is ignored)")->excludes(lower);
  cmd->add_flag("--unit-diagonal", args->unit, "take the diagonal as 1, whatever is stored");
  cmd->add_option("--precision", args->precision, "float or double")->capture_default_str();
  cmd->add_option("--rhs", args->rhs, "right-hand sides solved together")->check(CLI::PositiveNumber)->capture_default_str();
  cmd->add_option("--nmax", args->nmax, "unknowns per TASSL sub-graph, or auto (the performance model chooses)")
      ->capture_default_str();
  cmd->add_option("--threads", args->threads,
                  "threads per TASSL sub-graph task: 256, 512, or auto (the performance model chooses with n_max)")
      ->capture_default_str();
  cmd->add_option("--split", args->split,
                  "how TASSL splits components larger than n_max: heuristic (the paper's), bands (of row levels), "
                  "tiles (boxes along the matrix's strides), or auto (the performance model chooses with n_max)")
      ->capture_default_str();
  cmd->add_option("--reps", args->reps, "timed solves per variant (median reported)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--max-residual", args->max_residual,
                  "fail when a variant's relative residual exceeds this (default 1e-10 double, 1e-4 float)");
  cmd->add_flag("--json", args->json, "print the results as JSON");
  cmd->add_flag("--analysis-only", args->analysis_only,
                "run the host's TASSL analysis alone and list the model's candidates (no GPU needed)")
      ->excludes("--variant")
      ->excludes("--scheduler")
      ->excludes("--reps")
      ->excludes("--max-residual");
  cmd->callback([args] { run_sptrsv(*args); });
}

}  // namespace apiary::cli
