// `apiary jacobi MATRIX`: Jacobi iteration with every variant (kernel-by-kernel, CUDA
// graph with a device-side loop, and the task programs: stages with phases, stages with
// dependencies, autonomous, checkpoints) under the chosen schedulers, checked to agree with each
// other bit for bit, with a comparison table against the kernel-by-kernel baseline.
// Non-convergence within --max-iter is an error (exit 1) after the report.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "apps/commands.hpp"
#include "apps/options.hpp"
#include "apps/matrix_source.hpp"
#include "runtime/device.hpp"
#include "runtime/trace.hpp"
#include "sparse/reference.hpp"
#include "tasks/jacobi/jacobi.hpp"

namespace apiary::cli {

namespace {

struct JacobiArgs {
  std::string matrix;
  std::string variant = "all";
  std::string scheduler = "megakernel";
  std::string rhs = "ones";
  double tolerance = 1e-6;
  int max_iterations = 1000;
  int nnz_budget = 512;           // 0: auto (jacobi::auto_budgets)
  int row_budget = 256;
  bool row_budget_given = false;  // else `auto` chooses it too
  int checkpoint_interval = 4;
  int reps = 3;
  bool json = false;
  bool stats = false;
  bool check = false;
  std::string trace;  // prefix of the Chrome traces, one per task variant and scheduler
};

std::vector<jacobi::Variant> variants_of(const std::string& s) {
  if (s == "all") return {jacobi::kAllVariants.begin(), jacobi::kAllVariants.end()};
  std::vector<jacobi::Variant> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = s.find(',', start);
    const std::string one = s.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const auto v = jacobi::parse_variant(one);
    if (!v)
      throw std::invalid_argument("unknown variant '" + one +
                                  "' (kernels, graph, stages-phases, stages-deps, autonomous, checkpoints, a "
                                  "comma-separated list, or all)");
    if (std::find(out.begin(), out.end(), *v) == out.end()) out.push_back(*v);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

struct Result {
  jacobi::JacobiRun run;  // the last timed run
  double median_ms = 0, min_ms = 0, max_ms = 0;
};

double norm1(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += std::abs(x);
  return s;
}

std::string ratio_text(double r) { return std::isfinite(r) && r > 0 ? fmt::format("{:.2f}x", r) : "-"; }

// One more solve with the runtime's trace on, written to PREFIX-<variant>-<scheduler>.json.
// A solver of its own: tracing costs the kernel registers and time, so the timed runs
// never trace.
void write_trace(const JacobiArgs& args, const sparse::Csr<double>& a, const std::vector<double>& b,
                 jacobi::JacobiOptions options, jacobi::Variant v, Scheduler s) {
  options.run.trace = true;
  const jacobi::JacobiRun run = jacobi::JacobiSolver(a, b, options).solve(v, s);
  const std::string path = fmt::format("{}-{}-{}.json", args.trace, to_string(v), to_string(s));
  write_chrome_trace(path, run.trace, run.queue_names, std::string(to_string(s)));
  if (!args.json) fmt::print("trace      {} ({} tasks)\n", path, run.trace.size());
}

void run_jacobi(const JacobiArgs& args) {
  const auto variants = variants_of(args.variant);
  const auto schedulers = schedulers_of(args.scheduler);
  const auto rhs_kind = jacobi::parse_rhs(args.rhs);
  if (!rhs_kind) throw std::invalid_argument("unknown right-hand side '" + args.rhs + "' (ones or random)");
  // Input errors first, so that they are reported on any machine.
  const LoadedMatrix m = load_matrix(args.matrix);
  try {
    static_cast<void>(jacobi::split_diagonal(m.a));
  } catch (const sparse::SingularError& e) {
    throw std::runtime_error(fmt::format("jacobi: {} of {} (Jacobi divides by every a_ii)", e.what(), m.name));
  }
  if (const auto reason = no_device_reason()) throw std::runtime_error("no GPU available (" + *reason + ")");

  const std::vector<double> b = jacobi::make_rhs(*rhs_kind, m.a.rows);
  jacobi::JacobiOptions options;
  options.tolerance = args.tolerance;
  options.max_iterations = args.max_iterations;
  options.partition.nnz_budget = args.nnz_budget;
  options.partition.row_budget = args.row_budget;
  if (args.nnz_budget == 0) {
    const jacobi::PartitionOptions chosen = jacobi::auto_budgets(m.a.rows, m.a.nnz(), query_device().multiprocessors);
    options.partition.nnz_budget = chosen.nnz_budget;
    if (!args.row_budget_given) options.partition.row_budget = chosen.row_budget;
  }
  options.checkpoint_interval = args.checkpoint_interval;
  const auto solver = std::make_unique<jacobi::JacobiSolver>(m.a, b, options);
  const jacobi::JacobiProblem& problem = solver->problem();
  const jacobi::Partition& part = solver->partition();
  const jacobi::Dominance dominance = jacobi::diagonal_dominance(m.a);
  const auto warning = jacobi::dominance_warning(dominance);
  const double bytes = jacobi::bytes_per_iteration(problem);

  if (!args.json) {
    fmt::print("device     {}\n", describe(query_device()));
    fmt::print("matrix     {} ({}): {} x {}, {} non-zeros ({:.1f} per row)\n", m.name, m.source, m.a.rows, m.a.cols,
               m.a.nnz(), static_cast<double>(m.a.nnz()) / m.a.rows);
    fmt::print("problem    b = {}, x(0) = 1, stop when ||x(k+1) - x(k)||_1 < {:g} or after {} iterations\n", args.rhs,
               args.tolerance, args.max_iterations);
    fmt::print(
        "tasks      {} chunks of rows (nnz budget {}{}, row budget {}): at most {} rows, {} entries per chunk; "
        "{} rows split into {} pieces\n",
        part.chunks.size(), options.partition.nnz_budget, args.nnz_budget == 0 ? " (auto)" : "",
        options.partition.row_budget, part.max_rows, part.max_entries, part.split_rows,
        part.piece_chunks);
    fmt::print("traffic    {:.3g} MB per iteration (each matrix entry and vector element once)\n", bytes / 1e6);
    if (warning) fmt::print("warning    {}\n", *warning);
    std::fflush(stdout);
  }

  std::vector<Result> results;
  for (const jacobi::Variant v : variants) {
    const std::vector<Scheduler> for_variant =
        jacobi::uses_scheduler(v) ? schedulers : std::vector<Scheduler>{Scheduler::megakernel};
    for (const Scheduler s : for_variant) {
      Result r;
      std::vector<double> times;
      for (int rep = 0; rep <= args.reps; ++rep) {  // rep 0 warms up (and builds the graph or runtime)
        r.run = solver->solve(v, s);
        if (rep > 0) times.push_back(r.run.milliseconds);
      }
      std::sort(times.begin(), times.end());
      if (!args.trace.empty() && jacobi::uses_scheduler(v)) write_trace(args, m.a, b, options, v, s);
      r.median_ms = times[times.size() / 2];
      r.min_ms = times.front();
      r.max_ms = times.back();
      results.push_back(std::move(r));
    }
  }

  // Every variant runs the same arithmetic on the same chunks: any difference is a bug.
  const jacobi::JacobiRun& first = results.front().run;
  for (const Result& r : results)
    if (r.run.iterations != first.iterations || r.run.x != first.x)
      throw std::runtime_error(fmt::format(
          "jacobi: {} ({}) disagrees with {}: {} vs {} iterations, or different iterates", to_string(r.run.variant),
          to_string(r.run.scheduler), to_string(first.variant), r.run.iterations, first.iterations));
  const double residual = sparse::relative_residual(m.a, first.x, b);

  std::optional<double> reference_difference;
  std::optional<int> reference_iterations;
  if (args.check) {
    sparse::JacobiOptions ro;
    ro.tolerance = args.tolerance;
    ro.max_iterations = args.max_iterations;
    const sparse::JacobiResult<double> ref = sparse::jacobi(m.a, b, ro);
    double diff = 0, scale = 0;
    for (std::size_t i = 0; i < ref.x.size(); ++i) {
      diff = std::max(diff, std::abs(first.x[i] - ref.x[i]));
      scale = std::max(scale, std::abs(ref.x[i]));
    }
    reference_difference = diff / (scale > 0 ? scale : 1.0);
    reference_iterations = ref.iterations;
  }

  const auto kernels = std::find_if(results.begin(), results.end(),
                                    [](const Result& r) { return r.run.variant == jacobi::Variant::kernels; });
  const double kernels_ms = kernels != results.end() ? kernels->median_ms : 0.0;
  const auto per_iteration = [](const Result& r) { return r.median_ms / std::max(r.run.iterations, 1); };

  if (args.json) {
    nlohmann::json runs = nlohmann::json::array();
    for (const Result& r : results) {
      nlohmann::json j{{"variant", std::string(to_string(r.run.variant))},
                       {"iterations", r.run.iterations},
                       {"converged", r.run.converged},
                       {"last_change", r.run.last_change},
                       {"median_ms", r.median_ms},
                       {"min_ms", r.min_ms},
                       {"max_ms", r.max_ms},
                       {"ms_per_iteration", per_iteration(r)},
                       {"gb_per_s", bytes / (per_iteration(r) * 1e-3) / 1e9}};
      if (jacobi::uses_scheduler(r.run.variant)) j["scheduler"] = std::string(to_string(r.run.scheduler));
      if (kernels_ms > 0) j["speedup_vs_kernels"] = kernels_ms / r.median_ms;
      if (r.run.stats) j["stats"] = to_json(*r.run.stats);
      runs.push_back(std::move(j));
    }
    nlohmann::json out{{"matrix", m.name},
                       {"rows", m.a.rows},
                       {"nonzeros", m.a.nnz()},
                       {"rhs", args.rhs},
                       {"tolerance", args.tolerance},
                       {"max_iterations", args.max_iterations},
                       {"nnz_budget", options.partition.nnz_budget},
                       {"row_budget", options.partition.row_budget},
                       {"auto_budget", args.nnz_budget == 0},
                       {"chunks", part.chunks.size()},
                       {"split_rows", part.split_rows},
                       {"bytes_per_iteration", bytes},
                       {"strictly_diagonally_dominant", dominance.strict},
                       {"iterations", first.iterations},
                       {"converged", first.converged},
                       {"last_change", first.last_change},
                       {"relative_residual", residual},
                       {"runs", runs}};
    if (warning) out["warning"] = *warning;
    if (reference_difference) {
      out["reference_iterations"] = *reference_iterations;
      out["reference_relative_difference"] = *reference_difference;
    }
    fmt::print("{}\n", out.dump(2));
  } else {
    fmt::print("\n{:<14} {:<11} {:>6} {:>10} {:>10} {:>10} {:>8} {:>8}\n", "variant", "scheduler", "iters", "ms/iter",
               "median ms", "min..max", "GB/s", kernels_ms > 0 ? "speedup" : "");
    for (const Result& r : results) {
      const double per_iter = per_iteration(r);
      fmt::print("{:<14} {:<11} {:>6} {:>10.4f} {:>10.3f} {:>10} {:>8.1f} {:>8}\n", to_string(r.run.variant),
                 jacobi::uses_scheduler(r.run.variant) ? std::string(to_string(r.run.scheduler)) : std::string("-"),
                 r.run.iterations, per_iter, r.median_ms, fmt::format("{:.2f}..{:.2f}", r.min_ms, r.max_ms),
                 bytes / (per_iter * 1e-3) / 1e9, kernels_ms > 0 ? ratio_text(kernels_ms / r.median_ms) : "");
    }
    fmt::print("{} iterations, ||x(k+1) - x(k)||_1 = {:.3e}, ||b - Ax|| / ||b|| = {:.3e}, ||x||_1 = {:.6g}\n",
               first.iterations, first.last_change, residual, norm1(first.x));
    fmt::print("all {} runs agree bit for bit (median of {} timed runs each{})\n", results.size(), args.reps,
               kernels_ms > 0 ? "; speedup = kernels' median time / this median time" : "");
    if (reference_difference)
      fmt::print("host reference: {} iterations, largest difference {:.2e} relative to max |x_i|\n",
                 *reference_iterations, *reference_difference);
    if (args.stats)
      for (const Result& r : results)
        if (r.run.stats)
          fmt::print("\n{} ({}):\n{}", to_string(r.run.variant), to_string(r.run.scheduler),
                     format_stats(*r.run.stats));
    std::fflush(stdout);
  }

  if (reference_difference && (*reference_iterations != first.iterations || *reference_difference > 1e-12))
    throw std::runtime_error(fmt::format("jacobi: the host reference disagrees ({} iterations, difference {:.2e})",
                                         *reference_iterations, *reference_difference));
  if (!first.converged)
    throw std::runtime_error(
        fmt::format("jacobi: did not converge within {} iterations (||x(k+1) - x(k)||_1 = {:.3e}, "
                    "tolerance {:g})",
                    args.max_iterations, first.last_change, args.tolerance));
}

}  // namespace

void add_jacobi_command(CLI::App& app) {
  auto args = std::make_shared<JacobiArgs>();
  CLI::App* cmd = app.add_subcommand(
      "jacobi",
      "Jacobi iteration on the GPU: kernel-by-kernel, CUDA graph and task programs (stages with phases or "
      "dependencies, autonomous, checkpoints), compared");
  cmd->add_option("matrix", args->matrix, kMatrixArgumentHelp)->required();
  cmd->add_option(
         "--variant", args->variant,
         "all, kernels, graph, stages-phases, stages-deps, autonomous, checkpoints (or a comma-separated list)")
      ->capture_default_str();
  cmd->add_option("--scheduler", args->scheduler, "for the task variants: megakernel, timesliced, controller or all")
      ->capture_default_str();
  cmd->add_option("--tol", args->tolerance, "stop when ||x(k+1) - x(k)||_1 is below this")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--max-iter", args->max_iterations, "most iterations; not converging by then is an error")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--nnz-budget", args->nnz_budget,
                  "most entries of A per task (longer rows are split), or auto: chosen from the matrix's size and "
                  "the GPU's multiprocessors, with the row budget unless that is given")
      ->type_name("N|auto")
      ->transform(CLI::Transformer({{"auto", "0"}}))
      ->check(CLI::Range(2, 1 << 30) | CLI::IsMember({0}))
      ->capture_default_str();
  cmd->add_option("--row-budget", args->row_budget, "most rows per task")
      ->check(CLI::Range(1, 1 << 30))
      ->capture_default_str()
      ->each([args](const std::string&) { args->row_budget_given = true; });
  cmd->add_option("--checkpoint-every", args->checkpoint_interval,
                  "checkpoints: iterations between two checks of the change")
      ->check(CLI::Range(1, 1 << 20))
      ->capture_default_str();
  cmd->add_option("--trace", args->trace,
                  "after timing a task variant, one more traced solve to PREFIX-<variant>-<scheduler>.json "
                  "(Chrome trace; bench/plot_schedule.py draws it)");
  cmd->add_option("--rhs", args->rhs, "right-hand side: ones or random (uniform in [-1, 1), fixed seed)")
      ->capture_default_str();
  cmd->add_option("--reps", args->reps, "timed runs per variant (the median is reported)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_flag("--json", args->json, "print the results as JSON");
  cmd->add_flag("--stats", args->stats, "print the runtime's statistics of each task variant");
  cmd->add_flag("--check", args->check, "also run the host reference (sparse::jacobi) and compare");
  cmd->callback([args] { run_jacobi(*args); });
}

}  // namespace apiary::cli
