// Session 41: the model's terms, plus the rows of each level's slowest and largest sub-graph, for every
// (matrix, n_max, task width) of the quick-set sweep (to refit offline against the measured kernel times).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>
#include <fmt/format.h>
#include "sparse/generators.hpp"
#include "sparse/matrix_market.hpp"
#include "sparse/transform.hpp"
#include "tasks/sptrsv/analysis.hpp"
using namespace apiary;
using sparse::index_t;
void features(const std::string& name, const sparse::Csr<double>& l) {
  for (index_t n_max : {32, 128, 512, 2048, 6144, 12288, 24576}) {
    const sptrsv::Partition p = sptrsv::partition(l, n_max);
    const sptrsv::SubgraphDag dag = sptrsv::subgraph_dag(l, p);
    const sptrsv::Schedule s = sptrsv::build_schedule(l, p);
    for (const sptrsv::ModelConstants c : {sptrsv::kDefaultModel, sptrsv::kWideModel}) {
      if (n_max > sptrsv::max_subgraph<double>(c.threads)) continue;
      long long ext = 0, in = 0, rows = 0, big = 0;
      for (index_t level = 0; level < dag.levels; ++level) {
        double slowest = -1;
        long long e0 = 0, i0 = 0, r0 = 0, b0 = 0;
        for (index_t k = dag.level_ptr[level]; k < dag.level_ptr[level + 1]; ++k) {
          const index_t g = dag.order[k];
          const long long e = sptrsv::slot_rounds(s, g, true, c.threads), i = sptrsv::slot_rounds(s, g, false, c.threads);
          const long long r = (p.part_ptr[g + 1] - p.part_ptr[g] + c.threads - 1) / c.threads;
          b0 = std::max(b0, r);
          const double t = c.tau_external * e + c.tau_internal * i;
          if (t > slowest) { slowest = t; e0 = e; i0 = i; r0 = r; }
        }
        ext += e0; in += i0; rows += r0; big += b0;
      }
      std::printf("%s,%d,%d,%d,%lld,%lld,%lld,%lld\n", name.c_str(), n_max, c.threads, dag.levels, ext, in, rows, big);
      std::fflush(stdout);
    }
  }
}
int main(int argc, char** argv) {
  std::printf("matrix,n_max,threads,levels,ext,int,rows,big\n");
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(argv[1]))
    if (e.path().string().ends_with(".mtx.gz")) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    auto a = sparse::read_csr<double>(f);
    if (!a.is_square()) continue;
    std::string name = f.filename().string();
    features(name.substr(0, name.find(".mtx")), sparse::dominant_diagonal(sparse::lower_triangle(a, sparse::Diagonal::add_missing, 1.0)));
  }
  for (std::string s : {"poisson2d:300", "poisson2d:1000", "poisson3d:40", "poisson3d:100"})
    features(s, sparse::lower_triangle(sparse::generate<double>(s)));
  for (index_t s : {1000, 16000}) features(fmt::format("blocks16x{}@0.1%", s), sparse::block_diagonal_lower<double>(16, s, 0.001, 1));
  for (index_t k : {8, 64}) features(fmt::format("blocks{}x6000@1%", k), sparse::block_diagonal_lower<double>(k, 6000, 0.01, 2));
}
