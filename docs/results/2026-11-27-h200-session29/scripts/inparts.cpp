#include <chrono>
#include <cstdio>
#include <future>
#include "sparse/analysis.hpp"
#include "sparse/generators.hpp"
#include "sparse/matrix_market.hpp"
#include "tasks/sptrsv/analysis.hpp"
#include "tasks/sptrsv/partition.hpp"
using namespace apiary;
using K = std::chrono::steady_clock;
static double ms(K::time_point a) { return std::chrono::duration<double, std::milli>(K::now() - a).count(); }
int main(int argc, char** argv) {
  std::string spec = argv[1];
  sparse::Csr<double> a;
  if (spec.rfind("blocks", 0) == 0) { int k, s; double d; std::sscanf(spec.c_str(), "blocks%dx%d@%lf", &k, &s, &d); a = sparse::block_diagonal_lower<double>(k, s, d / 100, 1); }
  else if (sparse::is_generator_spec(spec)) a = sparse::generate<double>(spec); else a = sparse::read_csr<double>(spec);
  sptrsv::SystemOptions so; so.take = sparse::Triangle::lower;
  auto sys = sptrsv::make_lower_system(a, so);
  const auto& l = sys.lower;
  for (int r = 0; r < 3; ++r) {
    auto t = K::now(); auto c = sparse::weakly_connected_components(l); double tw = ms(t);
    t = K::now(); auto lv = sparse::level_sets(l, sparse::Triangle::lower); double tl = ms(t);
    t = K::now(); std::vector<sparse::index_t> cnt(l.rows + 1); for (sparse::index_t i = 0; i < l.rows; ++i) for (auto k = l.row_begin(i); k < l.row_end(i); ++k) if (l.col[k] < i) ++cnt[l.col[k] + 1]; double tc = ms(t);
    t = K::now(); sptrsv::PartitionInput in(l); double ti = ms(t);
    t = K::now(); in.prepare_orders(32); double tp = ms(t);
    std::printf("%s wcc %.1f levels %.1f counts %.1f | ctor %.1f prepare %.1f (nnz %lld)\n", spec.c_str(), tw, tl, tc, ti, tp, (long long)l.nnz());
  }
}
