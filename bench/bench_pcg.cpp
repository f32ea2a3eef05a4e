// PCG benchmark: every ordering x solver x loop on Poisson 2D/3D (or the matrices named),
// iterations and time, with the ratio against the cuSPARSE-built IC(0) PCG measured in
// the same run. Prints the `apiary pcg` table per matrix; --json writes all of them.
//
//   bench_pcg [--quick] [--order all] [--precond all] [--loop all] [--trsv tassl-deps]
//             [--reps 3] [--json out.json] [MATRIX ...]
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "runtime/device.hpp"
#include "sparse/generators.hpp"
#include "sparse/matrix_market.hpp"
#include "tasks/pcg/compare.hpp"

int main(int argc, char** argv) {
  using namespace apiary;
  CLI::App app{"PCG: IC(0) with the triangular-solve module vs cuSPARSE PCG, Jacobi-PCG and CG"};
  bool quick = false;
  std::string trsv = "tassl-deps", json_path, order = "all", precond = "all", loop = "all";
  int reps = 3;
  double shift = 0;
  std::vector<std::string> extra;
  app.add_flag("--quick", quick, "small sizes only (poisson2d:200, poisson3d:30)");
  app.add_option("--trsv", trsv, "triangular-solve variant for ic0")->capture_default_str();
  app.add_option("--reps", reps, "timed solves per solver (median)")->capture_default_str();
  app.add_option("--json", json_path, "write all results to this file");
  app.add_option("--order", order, "orderings: natural, rcm, color, a comma-separated list, or all")->capture_default_str();
  app.add_option("--precond", precond, "preconditioners: ic0 (with cusparse-ic0), jacobi, none, a list, or all")
      ->capture_default_str();
  app.add_option("--loop", loop, "loops: host, tasks, a list, or all")->capture_default_str();
  app.add_option("--shift", shift, "IC(0) of A + shift diag(A), for matrices where IC(0) breaks down")
      ->capture_default_str();
  app.add_option("matrices", extra, "matrices instead of the default set: generator specs or .mtx(.gz) files");
  CLI11_PARSE(app, argc, argv);
  bool failed = false;
  try {
    const auto variant = sptrsv::parse_variant(trsv);
    if (!variant) throw std::invalid_argument("unknown --trsv variant '" + trsv + "'");
    std::vector<std::string> specs = quick ? std::vector<std::string>{"poisson2d:200", "poisson3d:30"}
                                           : std::vector<std::string>{"poisson2d:1000", "poisson3d:50", "poisson3d:100"};
    if (!extra.empty()) specs = extra;
    pcg::CompareOptions o;
    o.orders = pcg::parse_order_list(order);
    o.methods = pcg::parse_preconditioner_list(precond);
    o.loops = pcg::parse_loop_list(loop);
    o.device.trsv = *variant;
    o.reps = reps;
    o.shift = shift;
    o.pcg.max_iterations = 20000;
    nlohmann::json all = nlohmann::json::array();
    fmt::print("device {}\n", describe(query_device()));
    // A matrix that fails (IC(0) breaks down in some ordering, a file does not parse) is
    // reported and the others still run; the exit status says that one failed.
    for (const std::string& spec : specs) {
      try {
        const sparse::Csr<double> a =
            sparse::is_generator_spec(spec) ? sparse::generate<double>(spec) : sparse::read_csr<double>(spec);
        const pcg::Comparison c = pcg::compare(a, o);
        fmt::print("\nmatrix {}\n{}", spec, pcg::format_comparison(c));
        nlohmann::json j = pcg::to_json(c);
        j["matrix"] = spec;
        all.push_back(j);
      } catch (const std::exception& e) {
        fmt::print("\nmatrix {}\n", spec);
        fmt::print(stderr, "bench_pcg: error: {}: {}\n", spec, e.what());
        failed = true;
      }
      std::fflush(stdout);  // a long run shows each matrix as it ends
    }
    if (!json_path.empty()) std::ofstream(json_path) << all.dump(2) << "\n";
  } catch (const std::exception& e) {
    fmt::print(stderr, "bench_pcg: error: {}\n", e.what());
    return 1;
  }
  return failed ? 1 : 0;
}
