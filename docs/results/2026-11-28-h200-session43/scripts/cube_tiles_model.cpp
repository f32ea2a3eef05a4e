// Model prediction for poisson3d:N partitioned in cube tiles of the grid (wavefront order),
// against the analysis's own choice. Host only: a hint of what a compact acyclic partition buys.
#include <algorithm>
#include <cstdio>
#include <string>
#include <tuple>
#include <vector>
#include "sparse/generators.hpp"
#include "sparse/transform.hpp"
#include "tasks/sptrsv/analysis.hpp"
#include "tasks/sptrsv/partition.hpp"
#include "tasks/sptrsv/schedule.hpp"
using namespace apiary;
using namespace apiary::sptrsv;
int main(int argc, char** argv) {
  const int N = std::stoi(argv[1]);
  auto l = sparse::lower_triangle(sparse::generate<double>("poisson3d:" + std::to_string(N)));
  auto sys = make_lower_system(l, {});
  auto an = analyze(sys, limits_of<double>());
  std::printf("analysis: n_max %d, %d sub-graphs, %d levels, predicted %.1f us\n", an.plan.largest, an.plan.subgraphs,
              an.plan.levels(), an.predicted_seconds * 1e6);
  for (auto [tx, ty, tz] : std::vector<std::tuple<int, int, int>>{{4, 4, 4}, {6, 6, 7}, {8, 8, 8}, {8, 8, 16}, {10, 10, 10}, {16, 16, 16}, {20, 20, 20}, {100, 4, 4}}) {
    const int bx = (N + tx - 1) / tx, by = (N + ty - 1) / ty, bz = (N + tz - 1) / tz;
    std::vector<std::tuple<int, int, int, int>> tiles;
    for (int a = 0; a < bx; ++a) for (int b = 0; b < by; ++b) for (int c = 0; c < bz; ++c) tiles.push_back({a + b + c, a, b, c});
    std::sort(tiles.begin(), tiles.end());
    std::vector<int> id(static_cast<std::size_t>(bx) * by * bz);
    for (std::size_t t = 0; t < tiles.size(); ++t) {
      auto [s, a, b, c] = tiles[t];
      id[(static_cast<std::size_t>(c) * by + b) * bx + a] = static_cast<int>(t);
    }
    Partition p;
    p.parts = static_cast<index_t>(tiles.size());
    p.part.resize(static_cast<std::size_t>(N) * N * N);
    std::vector<index_t> count(p.parts, 0);
    for (int k = 0; k < N; ++k) for (int j = 0; j < N; ++j) for (int i = 0; i < N; ++i) {
      const int t = id[(static_cast<std::size_t>(k / tz) * by + j / ty) * bx + i / tx];
      p.part[(static_cast<std::size_t>(k) * N + j) * N + i] = t;
      ++count[t];
    }
    p.n_max = *std::max_element(count.begin(), count.end());
    p.part_ptr.assign(p.parts + 1, 0);
    for (index_t t = 0; t < p.parts; ++t) p.part_ptr[t + 1] = p.part_ptr[t] + count[t];
    p.vertices.resize(p.part.size());
    std::vector<index_t> fill(p.part_ptr.begin(), p.part_ptr.end() - 1);
    for (std::size_t v = 0; v < p.part.size(); ++v) p.vertices[fill[p.part[v]]++] = static_cast<index_t>(v);
    std::string err;
    if (!is_feasible(sys.lower, p, &err)) { std::printf("%dx%dx%d infeasible: %s\n", tx, ty, tz, err.c_str()); continue; }
    auto dag = detail::subgraph_dag_of_feasible(sys.lower, p, detail::DagContent::levels);
    auto s = detail::schedule_of_feasible(sys.lower, p, 2, 1u << 13, detail::ScheduleContent::slots);
    for (const ModelConstants& m : {kDefaultModel, kWideModel}) {
      if (p.n_max > (m.threads == 512 ? limits_of<double>().wide_n_max_limit : limits_of<double>().n_max_limit)) continue;
      auto path = path_terms(dag, s, m);
      std::printf("tiles %2dx%2dx%2d (n_max %5d): %5d sub-graphs, %4d levels, width %d: predicted %8.1f us (ext %lld int %lld rounds)\n",
                  tx, ty, tz, p.n_max, p.parts, dag.levels, m.threads, model_seconds(dag.levels, path, m) * 1e6,
                  (long long)path.external, (long long)path.internal);
    }
  }
}
