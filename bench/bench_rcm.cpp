// RCM benchmark: the GPU variants (`cub`; `tasks` under every scheduler of the build, and
// under the megakernel once more with the Cuthill–McKee search by claims instead of from
// the start-node search's levels, once more without the BFS's shared-memory bitmap, and
// once more without the padded rows of its bitmap levels)
// against the serial reference (sparse::rcm) and cuSOLVER's cusolverSpXcsrsymrcmHost (one
// CPU thread), measured in the same run, on the shared real matrices and on generated
// Poisson 2D/3D and random graphs of >= 10^6 non-zeros, every matrix scrambled by a random
// symmetric permutation first (an ordered grid would already be banded). Reports median
// times with their range, bandwidth after, and speedups; one row per matrix and GPU method.
//
//   bench_rcm                       # shared matrices + generated, 3 reps
//   bench_rcm --reps 5 --no-shared --json rcm.json
//   bench_rcm --no-shared --inputs poisson2d --methods "tasks megakernel"   # one input, one method
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "runtime/device.hpp"
#include "runtime/scheduler.hpp"
#include "sparse/analysis.hpp"
#include "sparse/generators.hpp"
#include "sparse/matrix_market.hpp"
#include "sparse/rcm.hpp"
#include "sparse/transform.hpp"
#include "tasks/rcm/cusolver_rcm.hpp"
#include "tasks/rcm/rcm_gpu.hpp"

namespace {

using namespace apiary;
using sparse::Csr;
using sparse::index_t;

Csr<double> scrambled(const Csr<double>& a, std::uint64_t seed) {
  std::vector<index_t> p(static_cast<std::size_t>(a.rows));
  std::iota(p.begin(), p.end(), 0);
  std::mt19937_64 rng(seed);
  std::shuffle(p.begin(), p.end(), rng);
  return sparse::permute_symmetric(a, p);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Method {
  rcm::RcmVariant variant;
  Scheduler scheduler;
  bool reuse_levels = true;  // tasks: false = the Cuthill–McKee search with claims (as before)
  bool bfs_bitmap = true;    // tasks: false = no BFS claims in the shared-memory bitmap
  bool padded_rows = true;   // tasks: false = the bitmap's BFS levels read row bounds, not the padded copy
  std::string name() const {
    if (variant == rcm::RcmVariant::cub) return "cub";
    return fmt::format("tasks {}{}{}{}", to_string(scheduler), reuse_levels ? "" : " claims",
                       bfs_bitmap ? "" : " no bitmap", padded_rows ? "" : " no padding");
  }
  rcm::RcmGpuResult run(const Csr<double>& a) const {
    rcm::RcmGpuOptions o;
    o.reuse_levels = reuse_levels;
    o.bfs_bitmap = bfs_bitmap;
    o.padded_rows = padded_rows;
    return rcm::rcm_gpu(a, variant, scheduler, o);
  }
};

// Whether `name` contains one of `keep` (--inputs; empty: every name).
bool selected(const std::string& name, const std::vector<std::string>& keep) {
  return keep.empty() ||
         std::any_of(keep.begin(), keep.end(), [&](const std::string& k) { return name.find(k) != std::string::npos; });
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"RCM: GPU variants vs serial reference vs cuSOLVER"};
  int reps = 3;
  bool no_shared = false;
  std::string json_path;
  std::string shared = APIARY_SHARED_MATRICES;
  std::vector<std::string> inputs, method_names;
  app.add_option("--reps", reps, "timed runs per method (median)")->check(CLI::PositiveNumber);
  app.add_flag("--no-shared", no_shared, "skip the shared real matrices");
  app.add_option("--shared", shared, "folder of .mtx.gz matrices");
  app.add_option("--json", json_path, "also write the rows as JSON here");
  app.add_option("--inputs", inputs, "only the inputs whose name contains one of these")->delimiter(',');
  app.add_option("--methods", method_names, "only these GPU methods, named as printed (\"cub\", \"tasks megakernel\", ...)")
      ->delimiter(',');
  CLI11_PARSE(app, argc, argv);
  if (const auto reason = no_device_reason()) {
    fmt::print(stderr, "bench_rcm: no GPU available ({})\n", *reason);
    return 1;
  }
  try {
    std::vector<std::pair<std::string, Csr<double>>> cases;
    if (!no_shared && std::filesystem::is_directory(shared)) {
      std::vector<std::filesystem::path> files;
      for (const auto& e : std::filesystem::directory_iterator(shared))
        if (e.path().string().ends_with(".mtx.gz")) files.push_back(e.path());
      std::sort(files.begin(), files.end());
      for (const auto& f : files) {
        Csr<double> a = sparse::read_csr<double>(f);
        if (a.rows == a.cols && selected(f.filename().string(), inputs))
          cases.emplace_back(f.filename().string(), scrambled(a, 1));
      }
    }
    if (selected("poisson2d:1000 scrambled", inputs))
      cases.emplace_back("poisson2d:1000 scrambled", scrambled(sparse::poisson2d<double>(1000, 1000), 2));
    if (selected("poisson3d:100 scrambled", inputs))
      cases.emplace_back("poisson3d:100 scrambled", scrambled(sparse::poisson3d<double>(100, 100, 100), 3));
    if (selected("random_spd:1e6x8 scrambled", inputs))
      cases.emplace_back("random_spd:1e6x8 scrambled", scrambled(sparse::random_spd<double>(1'000'000, 8, 4), 5));
    if (cases.empty()) throw std::invalid_argument("--inputs matches no input");

    std::vector<Method> methods{{rcm::RcmVariant::cub, Scheduler::megakernel}};
    for (Scheduler sch : available_schedulers()) methods.push_back({rcm::RcmVariant::tasks, sch});
    methods.push_back({rcm::RcmVariant::tasks, Scheduler::megakernel, false});
    methods.push_back({rcm::RcmVariant::tasks, Scheduler::megakernel, true, false});
    methods.push_back({rcm::RcmVariant::tasks, Scheduler::megakernel, true, true, false});
    std::erase_if(methods, [&](const Method& m) {
      return !method_names.empty() && std::find(method_names.begin(), method_names.end(), m.name()) == method_names.end();
    });
    if (methods.empty()) throw std::invalid_argument("--methods matches no method");

    nlohmann::json rows = nlohmann::json::array();
    fmt::print("device {}\n\n{:<30} {:>9} {:>10} {:>10} {:<28} {:>10} {:>10} {:>8} {:>8} {:>8} {:>10} {:>9} {:>9} {:>5}\n",
               describe(query_device()), "matrix", "n", "nnz", "bw before", "method", "bw after", "gpu ms",
               "setup", "start", "perm", "serial ms", "x serial", "x cusolv", "same");
    for (const auto& [name, a0] : cases) {
      const Csr<double> a = sparse::is_pattern_symmetric(a0) ? a0 : sparse::symmetrize_pattern(a0);
      std::vector<double> ts, tc;
      sparse::RcmResult ref;
      for (int i = 0; i < reps; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        ref = sparse::rcm(a);
        ts.push_back(ms_since(t0));
      }
      for (int i = 0; i < reps; ++i) tc.push_back(rcm::cusolver_rcm(a).ms);
      const double s = median(ts), c = median(tc);
      for (const Method& method : methods) {
        method.run(a);  // warm-up
        std::vector<double> tg;
        rcm::RcmGpuResult g;
        for (int i = 0; i < reps; ++i) {
          g = method.run(a);
          tg.push_back(g.total_ms);
        }
        const double gm = median(tg);
        const index_t bw_after = sparse::bandwidth(sparse::permute_symmetric(a, g.perm));
        const bool same = g.perm == ref.perm;
        fmt::print("{:<30} {:>9} {:>10} {:>10} {:<28} {:>10} {:>10.3f} {:>8.2f} {:>8.2f} {:>8.2f} {:>10.3f} {:>9.2f} {:>9.2f} {:>5}\n",
                   name, a.rows, a.nnz(), sparse::bandwidth(a), method.name(), bw_after, gm, g.setup_ms,
                   g.start_ms, g.permutation_ms, s, s / gm, c / gm, same ? "yes" : "NO");
        rows.push_back({{"matrix", name},
                        {"n", a.rows},
                        {"nnz", a.nnz()},
                        {"bandwidth_before", sparse::bandwidth(a)},
                        {"method", method.name()},
                        {"variant", rcm::to_string(method.variant)},
                        {"scheduler", method.variant == rcm::RcmVariant::cub ? "" : to_string(method.scheduler)},
                        {"reuse_levels", method.variant == rcm::RcmVariant::tasks && method.reuse_levels},
                        {"bfs_bitmap", method.variant == rcm::RcmVariant::tasks && method.bfs_bitmap},
                        {"padded_rows", method.variant == rcm::RcmVariant::tasks && method.padded_rows},
                        {"bandwidth_after", bw_after},
                        {"gpu_ms", gm},
                        {"gpu_min_ms", *std::min_element(tg.begin(), tg.end())},
                        {"gpu_max_ms", *std::max_element(tg.begin(), tg.end())},
                        {"gpu_setup_ms", g.setup_ms},
                        {"gpu_start_ms", g.start_ms},
                        {"gpu_permutation_ms", g.permutation_ms},
                        {"serial_ms", s},
                        {"cusolver_ms", c},
                        {"cm_levels", g.cm_levels},
                        {"components", g.components},
                        {"runs", g.runs},
                        {"tasks", g.tasks},
                        {"phase_switches", g.phase_switches},
                        {"cm_from_levels", g.cm_from_levels},
                        {"cm_fallbacks", g.cm_fallbacks},
                        {"cm_overlapped", g.cm_overlapped},
                        {"bitmap_bfs", g.bitmap_bfs},
                        {"padded_slots", g.padded_slots},
                        {"rank_fast_levels", g.rank_fast_levels},
                        {"rank_general_levels", g.rank_general_levels},
                        {"device_bytes", g.device_bytes},
                        {"same_as_reference", same}});
      }
    }
    fmt::print("\nmedian of {} runs; serial reference and cuSOLVER (cusolverSpXcsrsymrcmHost) both run on one CPU "
               "thread; gpu ms includes upload and setup and the start-node search; setup, start and perm are\n"
               "the last run's parts of it (allocation and upload; start-node search; permutation)\n",
               reps);
    if (!json_path.empty()) std::ofstream(json_path) << rows.dump(2) << '\n';
  } catch (const std::exception& e) {
    fmt::print(stderr, "bench_rcm: {}\n", e.what());
    return 1;
  }
  return 0;
}
