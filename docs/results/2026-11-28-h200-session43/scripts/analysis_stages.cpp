// Sequential stage times of sptrsv::analyze's pipeline (one thread per step) for one matrix.
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>
#include "sparse/generators.hpp"
#include "sparse/matrix_market.hpp"
#include "sparse/transform.hpp"
#include "tasks/sptrsv/analysis.hpp"
#include "tasks/sptrsv/device_plan.hpp"
#include "tasks/sptrsv/partition.hpp"
#include "tasks/sptrsv/schedule.hpp"
using namespace apiary;
using namespace apiary::sptrsv;
using Clock = std::chrono::steady_clock;
static double ms(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }
int main(int argc, char** argv) {
  std::string spec = argv[1];
  sparse::Csr<double> l = sparse::is_generator_spec(spec) ? sparse::lower_triangle(sparse::generate<double>(spec))
     : sparse::dominant_diagonal(sparse::lower_triangle(sparse::read_csr<double>(spec), sparse::Diagonal::add_missing, 1.0));
  auto sys = make_lower_system(l, {});
  auto t0 = Clock::now();
  PartitionInput in(sys.lower);
  std::printf("input %.1f ms (levels %d, components %d)\n", ms(t0), in.levels, in.components);
  t0 = Clock::now();
  in.prepare_orders(32);
  std::printf("prepare_orders %.1f ms\n", ms(t0));
  for (int m : {32, 64, 128, 256, 512, 1024, 2048, 4096, 6144, 24576}) for (auto sp : {Split::heuristic, Split::bands}) {
    if (sp == Split::bands && m != 128 && m != 512 && m != 2048) continue;
    t0 = Clock::now();
    PartitionStats st;
    Partition p = partition(in, m, &st, sp);
    double tp = ms(t0);
    t0 = Clock::now();
    auto dag = detail::subgraph_dag_of_feasible(sys.lower, p, detail::DagContent::levels);
    double td = ms(t0);
    t0 = Clock::now();
    auto s = detail::schedule_of_feasible(sys.lower, p, 1, 1u << 13, detail::ScheduleContent::slots);
    double ts = ms(t0);
    std::printf("%6d %-9s partition %7.1f dag %7.1f slots %7.1f ms  (%d parts, %d levels)\n", m, split_name(sp), tp, td, ts, p.parts, dag.levels);
  }
  auto o = limits_of<double>();
  t0 = Clock::now();
  auto an = analyze(sys, o);
  std::printf("analyze (all threads) %.1f ms: n_max %d %s\n", ms(t0), an.plan.largest, split_name(an.split));
}
