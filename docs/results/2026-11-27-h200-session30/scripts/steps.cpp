// analyze's steps one by one on this host, as analyze runs them (threads, ranges): the
// input, each candidate's partition / slots / levels (one thread, 2 threads), and the
// chosen n_max's schedule, predecessors and device plan on all threads.
#include <chrono>
#include <cstdio>
#include <future>
#include <thread>
#include "sparse/generators.hpp"
#include "sparse/matrix_market.hpp"
#include "tasks/sptrsv/analysis.hpp"
#include "tasks/sptrsv/device_plan.hpp"
#include "tasks/sptrsv/partition.hpp"
#include "tasks/sptrsv/schedule.hpp"
using namespace apiary;
using namespace apiary::sptrsv;
using K = std::chrono::steady_clock;
static double ms(K::time_point a) { return std::chrono::duration<double, std::milli>(K::now() - a).count(); }
int main(int argc, char** argv) {
  std::string spec = argv[1];
  sparse::Csr<double> a;
  if (spec.rfind("blocks", 0) == 0) { int k, s; double d; std::sscanf(spec.c_str(), "blocks%dx%d@%lf", &k, &s, &d); a = sparse::block_diagonal_lower<double>(k, s, d / 100, 1); }
  else if (sparse::is_generator_spec(spec)) a = sparse::generate<double>(spec); else a = sparse::read_csr<double>(spec);
  SystemOptions so; so.take = sparse::Triangle::lower;
  LowerSystem sys;
  try { sys = make_lower_system(a, so); } catch (const std::exception&) { so.unit_diagonal = true; sys = make_lower_system(a, so); }
  const auto& l = sys.lower;
  AnalysisOptions o; o.n_max_limit = 6144;
  const Analysis an = analyze(sys, o);
  const index_t chosen = an.plan.n_max > 0 ? an.plan.n_max : 0;
  const unsigned cores = std::thread::hardware_concurrency();
  for (int rep = 0; rep < 2; ++rep) {
    auto t = K::now(); PartitionInput in(l); const double t_ctor = ms(t);
    t = K::now(); in.prepare_orders(32); const double t_prep = ms(t);
    std::printf("%s rows %d nnz %zu chosen n_max %d | ctor %.1f prepare %.1f\n", spec.c_str(), l.rows, l.nnz(), chosen, t_ctor, t_prep);
    for (index_t m = 32; m <= 6144; m = m == 4096 ? 6144 : m * 2) {
      t = K::now(); Partition p = partition(in, m); const double tp = ms(t);
      t = K::now(); Schedule s = detail::schedule_of_feasible(l, p, 2, std::size_t{1} << 16, detail::ScheduleContent::slots); const double ts = ms(t);
      t = K::now(); SubgraphDag d = detail::subgraph_dag_of_feasible(l, p, detail::DagContent::levels); const double td = ms(t);
      if (m != chosen) { std::printf("  n_max %5d parts %7d: partition %.1f slots(2) %.1f levels %.1f\n", m, p.parts, tp, ts, td); continue; }
#ifdef PLACE
      t = K::now(); detail::place_edges(l, p, s, cores, std::size_t{1} << 13); Schedule full = std::move(s); const double tf = ms(t);
#else
      t = K::now(); Schedule full = detail::schedule_of_feasible(l, p, cores, std::size_t{1} << 13); const double tf = ms(t);
#endif
      t = K::now(); detail::add_predecessors(d, l, p, cores, std::size_t{1} << 13); const double ta = ms(t);
      t = K::now(); DevicePlan plan = build_device_plan(l, p, std::move(full), d, false); const double tb = ms(t);
      std::printf("  n_max %5d parts %7d: partition %.1f slots(2) %.1f levels %.1f | chosen: schedule %.1f preds %.1f plan %.1f\n", m, p.parts, tp, ts, td, tf, ta, tb);
    }
  }
}
