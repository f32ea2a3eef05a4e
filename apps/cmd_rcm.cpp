// `apiary rcm`: Reverse Cuthill–McKee ordering on the GPU (docs/rcm.md), `cub` and the
// `tasks` program under the chosen schedulers, against the serial reference sparse::rcm
// and cuSOLVER's cusolverSpXcsrsymrcmHost (which runs on one CPU thread), all in the same
// run; bandwidth and profile before and after.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "apps/commands.hpp"
#include "apps/matrix_source.hpp"
#include "apps/options.hpp"
#include "runtime/device.hpp"
#include "sparse/analysis.hpp"
#include "sparse/matrix_market.hpp"
#include "sparse/rcm.hpp"
#include "sparse/transform.hpp"
#include "tasks/rcm/cusolver_rcm.hpp"
#include "tasks/rcm/rcm_gpu.hpp"

namespace apiary::cli {

namespace {

struct RcmArgs {
  std::string matrix;
  std::string variant = "all";
  std::string scheduler = "megakernel";
  std::string output;
  std::string output_matrix;
  int reps = 3;
  bool json = false;
};

struct Row {
  std::string method;
  const rcm::RcmGpuResult* gpu = nullptr;  // GPU rows: the median run
  double start_ms = -1;  // -1: not measured separately
  double permutation_ms = -1;
  double total_ms = 0;
  sparse::index_t bandwidth = 0;
  std::int64_t profile = 0;
  bool same_as_reference = false;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

double ms_of(const auto& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

void run_rcm(const RcmArgs& args) {
  std::vector<rcm::RcmVariant> variants;
  if (args.variant == "all") {
    variants = {rcm::RcmVariant::cub, rcm::RcmVariant::tasks};
  } else if (auto v = rcm::parse_variant(args.variant)) {
    variants = {*v};
  } else {
    throw std::invalid_argument("unknown variant '" + args.variant + "' (cub, tasks or all)");
  }
  const std::vector<Scheduler> schedulers = schedulers_of(args.scheduler);

  // Input errors first; they need no GPU.
  const LoadedMatrix m = load_matrix(args.matrix);
  if (m.a.rows != m.a.cols)
    throw std::invalid_argument(fmt::format("rcm needs a square matrix, {} is {} x {}", m.name, m.a.rows, m.a.cols));
  if (const auto reason = no_device_reason()) throw std::runtime_error("no GPU available (" + *reason + ")");

  const bool symmetric = sparse::is_pattern_symmetric(m.a);
  const sparse::Csr<double> sym = symmetric ? m.a : sparse::symmetrize_pattern(m.a);
  const auto quality = [&](const std::vector<sparse::index_t>& perm, Row& row) {
    const sparse::Csr<double> b = sparse::permute_symmetric(sym, perm);
    row.bandwidth = sparse::bandwidth(b);
    row.profile = sparse::profile(b);
  };

  std::vector<Row> rows;
  sparse::RcmResult ref;
  {
    std::vector<double> t;
    for (int i = 0; i < args.reps; ++i) t.push_back(ms_of([&] { ref = sparse::rcm(sym); }));
    Row row{.method = "serial reference (sparse::rcm, 1 CPU thread)"};
    row.total_ms = median(t);
    row.same_as_reference = true;
    quality(ref.perm, row);
    rows.push_back(row);
  }
  {
    std::vector<double> t;
    rcm::CusolverRcmResult c;
    for (int i = 0; i < args.reps; ++i) {
      c = rcm::cusolver_rcm(sym);
      t.push_back(c.ms);
    }
    Row row{.method = "cuSOLVER csrsymrcmHost (1 CPU thread)"};
    row.total_ms = median(t);
    row.same_as_reference = c.perm == ref.perm;
    quality(c.perm, row);
    rows.push_back(row);
  }
  // (variant, scheduler) pairs: `cub` runs no task program, so once.
  std::vector<std::pair<rcm::RcmVariant, Scheduler>> methods;
  for (rcm::RcmVariant v : variants) {
    if (v == rcm::RcmVariant::cub) methods.emplace_back(v, Scheduler::megakernel);
    else
      for (Scheduler s : schedulers) methods.emplace_back(v, s);
  }
  std::vector<rcm::RcmGpuResult> medians;
  medians.reserve(methods.size());  // rows point into it
  for (const auto& [v, s] : methods) {
    rcm::rcm_gpu(m.a, v, s);  // warm-up: context, module loading
    std::vector<rcm::RcmGpuResult> runs;
    for (int i = 0; i < args.reps; ++i) runs.push_back(rcm::rcm_gpu(m.a, v, s));
    std::sort(runs.begin(), runs.end(), [](const auto& x, const auto& y) { return x.total_ms < y.total_ms; });
    const rcm::RcmGpuResult& r = medians.emplace_back(std::move(runs[runs.size() / 2]));
    Row row{.method = v == rcm::RcmVariant::cub ? "gpu cub" : fmt::format("gpu tasks ({})", to_string(s)), .gpu = &r};
    row.start_ms = r.start_ms;
    row.permutation_ms = r.permutation_ms;
    row.total_ms = r.total_ms;
    row.same_as_reference = r.perm == ref.perm;
    quality(r.perm, row);
    rows.push_back(row);
  }
  const std::vector<sparse::index_t>& gpu_perm = medians.front().perm;
  const rcm::RcmGpuResult& last = medians.back();

  const sparse::index_t bw_before = sparse::bandwidth(sym);
  const std::int64_t profile_before = sparse::profile(sym);
  const double serial_ms = rows[0].total_ms, cusolver_ms = rows[1].total_ms;
  if (args.json) {
    nlohmann::json j;
    j["matrix"] = m.name;
    j["device"] = describe(query_device());
    j["rows"] = m.a.rows;
    j["nnz"] = m.a.nnz();
    j["symmetrized"] = !symmetric;
    j["bandwidth_before"] = bw_before;
    j["profile_before"] = profile_before;
    j["components"] = last.components;
    j["start_nodes_count"] = last.start_nodes.size();
    j["bfs_count"] = last.bfs_count;
    j["cm_levels"] = last.cm_levels;
    j["setup_ms"] = last.setup_ms;
    j["reps"] = args.reps;
    for (const Row& r : rows) {
      nlohmann::json o{{"method", r.method},         {"total_ms", r.total_ms},
                       {"bandwidth", r.bandwidth},   {"profile", r.profile},
                       {"same_as_reference", r.same_as_reference},
                       {"speedup_over_serial", serial_ms / r.total_ms},
                       {"speedup_over_cusolver", cusolver_ms / r.total_ms}};
      if (r.gpu != nullptr) {
        o["start_ms"] = r.start_ms;
        o["permutation_ms"] = r.permutation_ms;
        o["device_bytes"] = r.gpu->device_bytes;
        if (r.gpu->runs > 0) {
          o["runs"] = r.gpu->runs;
          o["tasks"] = r.gpu->tasks;
          o["phase_switches"] = r.gpu->phase_switches;
          o["bitmap_bfs"] = r.gpu->bitmap_bfs;
          o["padded_slots"] = r.gpu->padded_slots;
          o["rank_fast_levels"] = r.gpu->rank_fast_levels;
          o["rank_general_levels"] = r.gpu->rank_general_levels;
        }
      }
      j["results"].push_back(o);
    }
    fmt::print("{}\n", j.dump(2));
  } else {
    fmt::print("device     {}\n", describe(query_device()));
    fmt::print("matrix     {} ({}): {} x {}, {} non-zeros{}\n", m.name, m.source, m.a.rows, m.a.cols, m.a.nnz(),
               symmetric ? "" : "; pattern not symmetric, ordering A + A^T");
    fmt::print("before     bandwidth {}, profile {}\n", bw_before, profile_before);
    fmt::print("gpu        {} components ({} isolated), {} start-node searches, {} levels\n", last.components,
               last.isolated, last.bfs_count, last.cm_levels);
    fmt::print("\n{:<46} {:>10} {:>10} {:>10} {:>10} {:>12} {:>9} {:>9} {:>6}\n", "method", "start ms", "perm ms",
               "total ms", "bandwidth", "profile", "x serial", "x cusolv", "same");
    for (const Row& r : rows) {
      const std::string s = r.start_ms >= 0 ? fmt::format("{:.3f}", r.start_ms) : "-";
      const std::string p = r.permutation_ms >= 0 ? fmt::format("{:.3f}", r.permutation_ms) : "-";
      fmt::print("{:<46} {:>10} {:>10} {:>10.3f} {:>10} {:>12} {:>9.2f} {:>9.2f} {:>6}\n", r.method, s, p, r.total_ms,
                 r.bandwidth, r.profile, serial_ms / r.total_ms, cusolver_ms / r.total_ms,
                 r.same_as_reference ? "yes" : "no");
    }
    fmt::print("\n");
    for (const Row& r : rows) {
      if (r.gpu == nullptr) continue;
      fmt::print("{:<30} setup {:.3f} ms, {:.1f} MB device memory", r.method, r.gpu->setup_ms,
                 r.gpu->device_bytes / 1e6);
      if (r.gpu->runs > 0)
        fmt::print(", {} runs, {} tasks, {} phase switches, {} orders from BFS levels ({} given up, {} during the "
                   "next BFS; {} levels by the fast path, {} by the general one), {} BFS with the visited bitmap{}",
                   r.gpu->runs, r.gpu->tasks, r.gpu->phase_switches, r.gpu->cm_from_levels, r.gpu->cm_fallbacks,
                   r.gpu->cm_overlapped, r.gpu->rank_fast_levels, r.gpu->rank_general_levels, r.gpu->bitmap_bfs,
                   r.gpu->padded_slots > 0 ? fmt::format(" (rows padded to {} slots)", r.gpu->padded_slots) : "");
      fmt::print("\n");
    }
    fmt::print("\nmedian of {} runs; gpu total = setup (upload, degrees) + start node + permutation; "
               "\"same\": identical permutation to the serial reference.\ncuSOLVER's RCM runs on one CPU thread "
               "(cusolverSpXcsrsymrcmHost), like the serial reference.\n",
               args.reps);
  }

  if (!args.output.empty()) {
    std::ofstream out(args.output);
    if (!out) throw std::runtime_error("cannot write " + args.output);
    for (sparse::index_t v : gpu_perm) out << v << '\n';
    if (!out) throw std::runtime_error("failed writing " + args.output);
  }
  if (!args.output_matrix.empty()) sparse::write_matrix_market(args.output_matrix, sparse::permute_symmetric(m.a, gpu_perm));
  for (const Row& r : rows)
    if (r.method.starts_with("gpu") && !r.same_as_reference)
      throw std::runtime_error("rcm: " + r.method + " differs from the serial reference");
}

}  // namespace

void add_rcm_command(CLI::App& app) {
  auto args = std::make_shared<RcmArgs>();
  CLI::App* cmd = app.add_subcommand(
      "rcm", "Reverse Cuthill-McKee ordering on the GPU, against the serial reference and cuSOLVER");
  cmd->add_option("matrix", args->matrix, kMatrixArgumentHelp)->required();
  cmd->add_option("--variant", args->variant, "cub, tasks or all")->capture_default_str();
  cmd->add_option("--scheduler", args->scheduler,
                  "for the tasks variant: megakernel, timesliced, controller or all (cub ignores it)")
      ->capture_default_str();
  cmd->add_option("--output", args->output, "write the permutation (perm[new] = old, one per line, 0-based)");
  cmd->add_option("--output-matrix", args->output_matrix, "write P A P^T as Matrix Market (.mtx or .mtx.gz)");
  cmd->add_option("--reps", args->reps, "timed runs per method (median reported)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_flag("--json", args->json, "print the results as JSON");
  cmd->callback([args] { run_rcm(*args); });
}

}  // namespace apiary::cli
