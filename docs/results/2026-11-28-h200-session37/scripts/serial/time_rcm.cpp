#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <numeric>
#include "sparse/generators.hpp"
#include "sparse/rcm.hpp"
#include "sparse/transform.hpp"
using namespace apiary::sparse;
int main(int argc, char** argv) {
  const int which = argc > 1 ? atoi(argv[1]) : 0;
  Csr<double> a = which == 0 ? poisson2d<double>(1000, 1000) : poisson3d<double>(100, 100, 100);
  std::vector<index_t> p(a.rows); std::iota(p.begin(), p.end(), 0);
  std::mt19937 g(456); std::shuffle(p.begin(), p.end(), g);
  a = permute_symmetric(a, std::span<const index_t>(p));
  double best = 1e9;
  RcmResult r;
  for (int i = 0; i < 5; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    r = rcm(a);
    best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  unsigned long long h = 0; for (auto v : r.perm) h = h * 1000003 + v;
  printf("n %d best %.1f ms hash %llx\n", a.rows, best, h);
}
