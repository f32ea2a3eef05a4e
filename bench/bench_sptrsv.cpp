// Sparse triangular solve benchmark: every variant of `apiary sptrsv` on a matrix set
// (the real matrices of a folder, Poisson 2D/3D factors, the TASSL paper's synthetic
// block-diagonal sets), one row per matrix x variant in a CSV, and a summary against the
// issue's goals: the default variant (tassl-deps) vs cuSPARSE SpSV and vs sync-free.
//
//   bench_sptrsv --set quick --matrices ../shared/matrices --csv out.csv
//   python3 bench/plot_sptrsv.py out.csv out.png
//   bench_sptrsv --analysis-only --set quick --matrices ../shared/matrices --csv analysis.csv
//
// The analysis and every variant's set-up are made --setup-reps times (3) and their
// medians reported, so that the analysis ratio compares like with like: one of each,
// timed alone, moved it by 2x between passes on one host.
//
// --analysis-only needs no GPU: it times the host's TASSL analysis alone, with its
// candidates pruned and in full, alternated in one process (docs/sptrsv.md, "Pruning
// candidates").
//
// Real matrices: the lower triangle, with a missing diagonal added and every diagonal
// set to 1 + the row's absolute off-diagonal sum (the structure, which decides the time,
// is the matrix's own; the values only keep the solve well conditioned).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "runtime/device.hpp"
#include "sparse/analysis.hpp"
#include "sparse/generators.hpp"
#include "sparse/matrix_market.hpp"
#include "sparse/transform.hpp"
#include "tasks/sptrsv/compare.hpp"

namespace {

using namespace apiary;
using sparse::Csr;
using sparse::index_t;

struct Input {
  std::string name;
  std::string kind;  // real, poisson, synthetic
  Csr<double> lower;
};

std::vector<std::string> generated_specs(const std::string& set) {
  std::vector<std::string> poisson = {"poisson2d:300", "poisson2d:1000", "poisson3d:40", "poisson3d:100"};
  if (set == "full") {
    poisson.push_back("poisson2d:3162");
    poisson.push_back("poisson3d:215");
  }
  return poisson;
}

// The paper's sets: 16 components of growing size at 0.1%, and a growing number of
// 6,000-row components at 1%; each made when its turn comes.
struct Synthetic {
  std::string name;
  std::function<Csr<double>()> make;
};
std::vector<Synthetic> synthetic(const std::string& set) {
  std::vector<Synthetic> out;
  const std::vector<index_t> sizes = set == "full" ? std::vector<index_t>{250, 1000, 4000, 16000, 55000}
                                                   : std::vector<index_t>{1000, 16000};
  for (index_t s : sizes)
    out.push_back({fmt::format("blocks16x{}@0.1%", s),
                   [s] { return sparse::block_diagonal_lower<double>(16, s, 0.001, 1); }});
  const std::vector<index_t> counts = set == "full" ? std::vector<index_t>{8, 32, 128, 512}
                                                    : std::vector<index_t>{8, 64};
  for (index_t k : counts)
    out.push_back({fmt::format("blocks{}x6000@1%", k),
                   [k] { return sparse::block_diagonal_lower<double>(k, 6000, 0.01, 2); }});
  return out;
}

// Calls run(name, kind, lower, k, total) for the k-th (from 1) of the set's `total`
// matrices, each that --only (`only`, when not empty) leaves in: the real matrices of
// `folder` (square ones; the lower triangle with a missing diagonal added, made
// diagonally dominant), the Poisson factors, the synthetic sets. A matrix left out is
// neither read nor made.
template <class Run>
void for_each_matrix(const std::string& set, const std::string& folder, const std::vector<std::string>& only,
                     Run&& run) {
  std::vector<std::filesystem::path> files;
  if (!folder.empty()) {
    for (const auto& e : std::filesystem::directory_iterator(folder))
      if (e.path().string().ends_with(".mtx.gz") || e.path().string().ends_with(".mtx")) files.push_back(e.path());
    std::sort(files.begin(), files.end());
  }
  const std::vector<std::string> specs = generated_specs(set);
  const std::vector<Synthetic> synthetics = synthetic(set);
  const std::size_t total = files.size() + specs.size() + synthetics.size();
  std::size_t k = 0;
  auto left_in = [&](const std::string& name) {
    ++k;
    return only.empty() || std::find(only.begin(), only.end(), name) != only.end();
  };
  for (const auto& f : files) {
    std::string name = f.filename().string();
    name = name.substr(0, name.find(".mtx"));
    if (!left_in(name)) continue;
    const Csr<double> a = sparse::read_csr<double>(f);
    if (!a.is_square()) continue;
    run(name, "real", sparse::dominant_diagonal(sparse::lower_triangle(a, sparse::Diagonal::add_missing, 1.0)), k,
        total);
  }
  for (const auto& spec : specs)
    if (left_in(spec)) run(spec, "poisson", sparse::lower_triangle(sparse::generate<double>(spec)), k, total);
  for (const Synthetic& m : synthetics)
    if (left_in(m.name)) run(m.name, "synthetic", m.make(), k, total);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

// --analysis-only: each matrix's analysis `reps` times pruned and `reps` times in full
// (AnalysisOptions::prune), alternated in one process, medians compared; the two must
// choose the same plan. Then `reps` times the analysis's reuse for a matrix of the same
// pattern (refresh_values with the values halved), against the analysis. Host only.
int analysis_bench(const std::string& set, const std::string& folder, const std::string& csv_path, int reps,
                   const std::vector<std::string>& only) {
  std::ofstream csv(csv_path);
  csv << "matrix,kind,n,nnz,row_levels,n_max,threads,split,subgraphs,subgraph_levels,candidates,pruned,"
         "analysis_ms,min_ms,max_ms,full_ms,full_min_ms,full_max_ms,refresh_ms\n";
  std::vector<double> ratios;
  bool same = true;
  for_each_matrix(set, folder, only, [&](const std::string& name, const std::string& kind, const Csr<double>& lower,
                                         std::size_t k, std::size_t total) {
    fmt::print("[{}/{}] {} (n {}, nnz {}) ... ", k, total, name, lower.rows, lower.nnz());
    std::fflush(stdout);
    sptrsv::CompareOptions pruned, full;
    full.prune = false;
    std::vector<double> with, without;
    sptrsv::Comparison c, f;
    try {
      for (int rep = 0; rep < reps; ++rep) {
        c = sptrsv::analysis_only(lower, pruned);
        with.push_back(c.analysis_ms);
        f = sptrsv::analysis_only(lower, full);
        without.push_back(f.analysis_ms);
      }
    } catch (const std::exception& e) {
      fmt::print("skipped: {}\n", e.what());
      return;
    }
    // The reuse: the same pattern, other values.
    const sptrsv::LowerSystem sys = sptrsv::make_lower_system(lower, {});
    Csr<double> halved = lower;
    for (double& v : halved.val) v *= 0.5;
    const sptrsv::LowerSystem other = sptrsv::make_lower_system(halved, {});
    sptrsv::Analysis reused = sptrsv::analyze(sys, sptrsv::limits_of<double>());
    std::vector<double> refresh;
    for (int rep = 0; rep < reps; ++rep) {
      const auto t0 = std::chrono::steady_clock::now();
      sptrsv::refresh_values(reused, rep % 2 ? sys : other);
      refresh.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    const auto& a = c.analysis;
    const bool agree = a.plan.n_max == f.analysis.plan.n_max && a.plan.threads == f.analysis.plan.threads &&
                       a.split == f.analysis.split && a.predicted_seconds == f.analysis.predicted_seconds;
    same = same && agree;
    const auto pruned_count = std::count(a.candidate_pruned.begin(), a.candidate_pruned.end(), true);
    const double ms = median(with), full_ms = median(without);
    ratios.push_back(full_ms / ms);
    const double refresh_ms = median(refresh);
    csv << fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{:.3f},{:.3f},{:.3f},{:.3f},{:.3f},{:.3f},{:.3f}\n", name, kind,
                       c.n, c.nnz, a.row_levels, a.plan.n_max, a.plan.threads, sptrsv::split_name(a.split),
                       a.plan.subgraphs, a.plan.levels(), a.candidates.size(), pruned_count, ms,
                       *std::min_element(with.begin(), with.end()), *std::max_element(with.begin(), with.end()),
                       full_ms, *std::min_element(without.begin(), without.end()),
                       *std::max_element(without.begin(), without.end()), refresh_ms);
    csv.flush();
    fmt::print("{:.2f} ms ({} of {} candidates pruned), in full {:.2f} ms: {:.2f}x{}; new values {:.3f} ms ({:.0f}x "
               "less than the analysis)\n",
               ms, pruned_count, a.candidates.size(), full_ms, full_ms / ms, agree ? "" : "; THE CHOICES DIFFER",
               refresh_ms, ms / refresh_ms);
  });
  double log_sum = 0;
  for (double r : ratios) log_sum += std::log(r);
  fmt::print("\nanalysis on {} matrices ({} hardware threads): pruned against in full, geometric mean {:.2f}x "
             "faster; {}\ncsv {}\n",
             ratios.size(), std::thread::hardware_concurrency(),
             ratios.empty() ? 0.0 : std::exp(log_sum / static_cast<double>(ratios.size())),
             same ? "the same plan chosen on every matrix" : "the choice DIFFERS on some matrix", csv_path);
  return same ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Sparse triangular solve: every variant on a matrix set, CSV and summary"};
  std::string set = "quick", folder, csv_path = "sptrsv.csv", json_path;
  int reps = 5;
  std::string scheduler = "megakernel";
  std::string sweep_path;
  std::vector<std::string> only;
  app.add_option("--set", set, "quick or full")->check(CLI::IsMember({"quick", "full"}))->capture_default_str();
  app.add_option("--matrices", folder, "folder of .mtx/.mtx.gz files (real matrices)");
  app.add_option("--csv", csv_path, "CSV output")->capture_default_str();
  app.add_option("--json", json_path, "JSON output (every comparison)");
  app.add_option("--reps", reps, "timed solves per variant")->capture_default_str();
  int setup_reps = 3;
  app.add_option("--setup-reps", setup_reps,
                 "times the analysis and each set-up is made (median reported, for both sides of the analysis ratio)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--scheduler", scheduler, "scheduler of the runtime variants")->capture_default_str();
  app.add_option("--sweep", sweep_path,
                 "also time tassl-deps and tassl-kernels at fixed n_max 32..24576 and both task widths (as far as "
                 "each holds) and write the model's terms with the times to this CSV (to fit the model constants)");
  app.add_option("--only", only, "run only the matrices of these names (e.g. nh2010,poisson3d:100,blocks8x6000@1%)")
      ->delimiter(',');
  bool analysis = false;
  app.add_flag("--analysis-only", analysis,
               "time the host's TASSL analysis alone, pruned and in full in turn (no GPU needed), and write "
               "one row per matrix to the CSV");
  CLI11_PARSE(app, argc, argv);
  if (analysis) return analysis_bench(set, folder, csv_path, reps, only);
  if (const auto reason = no_device_reason()) {
    std::fprintf(stderr, "bench_sptrsv: no GPU available (%s)\n", reason->c_str());
    return 1;
  }
  const auto sched = parse_scheduler(scheduler);
  if (!sched) {
    std::fprintf(stderr, "bench_sptrsv: unknown scheduler '%s'\n", scheduler.c_str());
    return 1;
  }
  fmt::print("device {}\n", describe(query_device()));
  fmt::print("{} timed solves per variant (median); analysis and set-up: median of {}\n", reps, setup_reps);

  std::ofstream csv(csv_path);
  csv << "matrix,kind,n,nnz,row_levels,n_max,threads,split,subgraphs,subgraph_levels,internal_share,analysis_ms,variant,"
         "scheduler,setup_ms,solve_ms,kernel_ms,gflops,residual,speedup_vs_cusparse,break_even\n";
  nlohmann::json all = nlohmann::json::array();
  sptrsv::CompareOptions o;
  o.reps = reps;
  o.setup_reps = setup_reps;
  o.schedulers = {*sched};

  struct Summary {
    std::string name;
    index_t n;
    double vs_cusparse, vs_syncfree, analysis_ratio;
  };
  std::vector<Summary> summary;
  std::ofstream sweep;
  if (!sweep_path.empty()) {
    sweep.open(sweep_path);
    sweep << "matrix,n_max,threads,split,variant,solve_ms,kernel_ms,levels,path_external_slots,path_internal_slots,"
             "predicted_ms\n";
  }
  auto run_sweep = [&](const std::string& name, const Csr<double>& lower) {
    sptrsv::CompareOptions so = o;
    so.variants = {sptrsv::Variant::tassl_deps, sptrsv::Variant::tassl_kernels};
    // Bands and tiles split only components larger than n_max; below that every split is
    // the same.
    const sparse::Components comps = sparse::weakly_connected_components(lower);
    std::vector<index_t> comp_size(static_cast<std::size_t>(comps.count), 0);
    for (index_t c : comps.label) ++comp_size[static_cast<std::size_t>(c)];
    const index_t largest = comp_size.empty() ? 0 : *std::max_element(comp_size.begin(), comp_size.end());
    for (sptrsv::Split split : {sptrsv::Split::heuristic, sptrsv::Split::bands, sptrsv::Split::tiles})
      for (index_t n_max : {32, 128, 512, 2048, 4096, 6144, 24576})
        for (int threads : {sptrsv::kTasslThreads, sptrsv::kWideTasslThreads}) {
          if (n_max > sptrsv::max_subgraph<double>(threads)) continue;
          if (split != sptrsv::Split::heuristic && n_max >= largest) continue;
          so.n_max = n_max;
          so.threads = threads;
          so.split = split;
          const sptrsv::Comparison c = sptrsv::compare(lower, so);
          for (const auto& r : c.results)
            if (r.error.empty())
              sweep << fmt::format("{},{},{},{},{},{:.5f},{},{},{},{},{:.5f}\n", name, n_max, threads,
                                   sptrsv::split_name(split), to_string(r.variant), r.solve_ms,
                                   r.kernel_ms ? fmt::format("{:.5f}", *r.kernel_ms) : "", c.analysis.plan.levels(),
                                   c.analysis.path_external_slots, c.analysis.path_internal_slots,
                                   c.analysis.predicted_seconds * 1e3);
        }
  };
  auto run_one = [&](const std::string& name, const std::string& kind, const Csr<double>& lower, std::size_t k,
                     std::size_t total) {
    fmt::print("[{}/{}] {} (n {}, nnz {}) ... ", k, total, name, lower.rows, lower.nnz());
    std::fflush(stdout);
    sptrsv::Comparison c;
    try {
      c = sptrsv::compare(lower, o);
    } catch (const std::exception& e) {
      fmt::print("skipped: {}\n", e.what());
      return;
    }
    const auto* cu = c.find(sptrsv::Variant::cusparse);
    const auto* sf = c.find(sptrsv::Variant::syncfree);
    const auto* td = c.find(sptrsv::Variant::tassl_deps);
    const auto& a = c.analysis;
    const double share = a.internal_edges + a.external_edges == 0
                             ? 1.0
                             : double(a.internal_edges) / double(a.internal_edges + a.external_edges);
    for (const auto& r : c.results) {
      const auto be = c.break_even(r);
      csv << fmt::format("{},{},{},{},{},{},{},{},{},{},{:.4f},{:.3f},{},{},{:.4f},{:.5f},{},{:.3f},{:.3e},{},{}\n", name,
                         kind, c.n, c.nnz, a.row_levels, a.plan.n_max, a.plan.threads,
                         sptrsv::split_name(a.split), a.plan.subgraphs,
                         a.plan.levels(), share,
                         c.analysis_ms, to_string(r.variant), r.scheduler ? to_string(*r.scheduler) : "",
                         r.setup_ms, r.error.empty() ? r.solve_ms : NAN,
                         r.kernel_ms ? fmt::format("{:.5f}", *r.kernel_ms) : "", r.error.empty() ? c.gflops(r) : NAN,
                         r.residual, cu && r.error.empty() ? fmt::format("{:.4f}", cu->solve_ms / r.solve_ms) : "",
                         be ? std::to_string(*be) : "");
    }
    nlohmann::json j = sptrsv::to_json(c);
    j["matrix"] = name;
    j["kind"] = kind;
    all.push_back(j);
    if (cu && td && sf)
      summary.push_back({name, c.n, cu->solve_ms / td->solve_ms, sf->solve_ms / td->solve_ms,
                         (c.analysis_ms + td->setup_ms) / cu->setup_ms});
    if (sweep.is_open()) run_sweep(name, lower);
    fmt::print("tassl-deps {:.4f} ms, cuSPARSE {}, sync-free {}\n", td ? td->solve_ms : NAN,
               cu ? fmt::format("{:.4f} ms", cu->solve_ms) : "failed",
               sf ? fmt::format("{:.4f} ms", sf->solve_ms) : "failed");
    for (const auto& r : c.results)
      if (!r.error.empty()) fmt::print("  {} failed: {}\n", to_string(r.variant), r.error);
    // A run cut short (a time limit) keeps the matrices it finished.
    csv.flush();
    std::fflush(stdout);
  };
  for_each_matrix(set, folder, only, run_one);

  if (!json_path.empty()) std::ofstream(json_path) << all.dump(1) << "\n";
  // The goals, over matrices with at least 10^4 rows.
  int big = 0, faster_cu = 0, faster_sf = 0;
  double log_sum = 0, worst_analysis = 0;
  for (const auto& s : summary) {
    if (s.n < 10000) continue;
    ++big;
    faster_cu += s.vs_cusparse > 1.0;
    faster_sf += s.vs_syncfree > 1.0;
    log_sum += std::log(s.vs_cusparse);
    worst_analysis = std::max(worst_analysis, s.analysis_ratio);
  }
  fmt::print("\ntassl-deps on {} matrices with >= 10^4 rows: faster than cuSPARSE on {} ({:.0f}%), geometric-mean "
             "speedup {:.2f}x; faster than sync-free on {}; analysis+setup up to {:.1f}x cuSPARSE's analysis\n",
             big, faster_cu, big ? 100.0 * faster_cu / big : 0.0, big ? std::exp(log_sum / big) : 0.0, faster_sf,
             worst_analysis);
  fmt::print("csv {}\n", csv_path);
  return 0;
}
