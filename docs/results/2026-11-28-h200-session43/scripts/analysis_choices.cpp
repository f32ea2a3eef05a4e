#include <chrono>
#include <cstdio>
#include <string>
#include "sparse/generators.hpp"
#include "sparse/matrix_market.hpp"
#include "sparse/transform.hpp"
#include "tasks/sptrsv/analysis.hpp"
#include "tasks/sptrsv/partition.hpp"
using namespace apiary;
using namespace apiary::sptrsv;
int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    std::string spec = argv[i];
    sparse::Csr<double> l = sparse::is_generator_spec(spec) ? sparse::lower_triangle(sparse::generate<double>(spec))
       : sparse::dominant_diagonal(sparse::lower_triangle(sparse::read_csr<double>(spec), sparse::Diagonal::add_missing, 1.0));
    auto sys = make_lower_system(l, {});
    PartitionInput in(sys.lower);
    auto t0 = std::chrono::steady_clock::now();
    auto an = analyze(sys, limits_of<double>());
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%s: strides %d, analyze %.0f ms, chose %s n_max %d x %d: %d sub-graphs, %d levels, predicted %.1f us\n", spec.c_str(), in.stride_dims, ms,
                split_name(an.split), an.plan.largest, an.plan.threads, an.plan.subgraphs, an.plan.levels(), an.predicted_seconds * 1e6);
    for (std::size_t k = 0; k < an.candidates.size(); ++k)
      if (an.candidate_splits[k] != Split::heuristic || true)
        std::printf("   %-9s %6d  levels %5d  %8.1f us%s\n", split_name(an.candidate_splits[k]), an.candidates[k], an.candidate_levels[k],
                    an.candidate_seconds[k] * 1e6, an.candidate_chosen_from[k] ? "" : " (passed over)");
  }
}
