#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>
#include "sparse/matrix_market.hpp"
#include "sparse/transform.hpp"
#include "sparse/generators.hpp"
#include "tasks/sptrsv/analysis.hpp"
using namespace apiary;
int main(int argc, char** argv) {
  std::string spec = argv[1];
  sparse::Csr<double> l = sparse::is_generator_spec(spec) ? sparse::lower_triangle(sparse::generate<double>(spec))
     : sparse::dominant_diagonal(sparse::lower_triangle(sparse::read_csr<double>(spec), sparse::Diagonal::add_missing, 1.0));
  auto sys = sptrsv::make_lower_system(l, {});
  sptrsv::PartitionInput in(l);
  for (int m : {32, 128, 512, 2048, 4096, 24576}) for (auto sp : {sptrsv::Split::heuristic, sptrsv::Split::bands}) {
    auto t0 = std::chrono::steady_clock::now();
    sptrsv::PartitionStats st;
    auto p = sptrsv::partition(in, m, &st, sp);
    double tp = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    auto o = sptrsv::limits_of<double>(); o.n_max = m; o.split = sp;
    t0 = std::chrono::steady_clock::now();
    auto an = sptrsv::analyze(sys, o);
    double ta = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%6d %s partition %.1f ms (%d parts, cuts %d) analyze %.1f ms\n", m, sptrsv::split_name(sp), tp, p.parts, st.band_cuts, ta);
  }
}
