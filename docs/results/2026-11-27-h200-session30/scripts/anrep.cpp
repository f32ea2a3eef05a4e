// analyze repeated on one matrix: median ms (for profiling the analysis alone).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include "sparse/generators.hpp"
#include "sparse/matrix_market.hpp"
#include "tasks/sptrsv/analysis.hpp"
using namespace apiary;
int main(int argc, char** argv) {
  std::string spec = argv[1];
  int reps = argc > 2 ? std::atoi(argv[2]) : 20;
  sparse::Csr<double> a;
  if (spec.rfind("blocks", 0) == 0) {
    int k, s; double d;
    std::sscanf(spec.c_str(), "blocks%dx%d@%lf", &k, &s, &d);
    a = sparse::block_diagonal_lower<double>(k, s, d / 100, 1);
  } else if (sparse::is_generator_spec(spec)) a = sparse::generate<double>(spec);
  else a = sparse::read_csr<double>(spec);
  sptrsv::SystemOptions so;
  so.take = sparse::Triangle::lower;
  sptrsv::LowerSystem sys;
  try { sys = sptrsv::make_lower_system(a, so); } catch (const std::exception&) { so.unit_diagonal = true; sys = sptrsv::make_lower_system(a, so); }
  sptrsv::AnalysisOptions o;
  o.n_max_limit = 6144;
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    auto an = sptrsv::analyze(sys, o);
    t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  std::printf("%-28s analyze median %.2f ms min %.2f\n", spec.c_str(), t[t.size() / 2], t[0]);
}
