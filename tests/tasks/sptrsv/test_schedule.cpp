// Edge scheduling, the emulated solve and the performance model: hand-checked slots,
// schedule checks plus solves against the reference over random DAGs, model problems and
// the shared real matrices, and the choice of n_max.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sparse/convert.hpp"
#include "sparse/generators.hpp"
#include "sparse/matrix_market.hpp"
#include "sparse/reference.hpp"
#include "sparse/transform.hpp"
#include "tasks/sptrsv/analysis.hpp"
#include "tasks/sptrsv/partition.hpp"
#include "tasks/sptrsv/plan_solve.hpp"
#include "tasks/sptrsv/schedule.hpp"
#include "tasks/sptrsv/device_plan.hpp"
#include "tests/tasks/sptrsv/dag_cases.hpp"
#include "tests/tasks/sptrsv/solve_cases.hpp"

namespace {

using apiary::sparse::Coo;
using apiary::sparse::Csr;
using apiary::sparse::index_t;
using namespace apiary::sptrsv;

using apiary::sptrsv::testing::chain;
using apiary::sptrsv::testing::from_edges;
using apiary::sptrsv::testing::relative_error;
using apiary::sptrsv::testing::rhs;

struct Summary {
  index_t parts = 0, levels = 0, max_slots = 0;
  double internal_share = 0;
  std::int64_t slots = 0;
  index_t attempts = 0, fallbacks = 0;
};

// Partition, schedule, check and solve; the solve must match forward substitution.
Summary expect_solves(const Csr<double>& l, index_t n_max, const std::string& label, Split split = Split::heuristic) {
  SCOPED_TRACE(label + ", n_max " + std::to_string(n_max) + ", split by " + split_name(split));
  Summary sum;
  PartitionStats st;
  const Partition p = partition(l, n_max, &st, split);
  sum.attempts = st.heuristic_attempts;
  sum.fallbacks = st.unbounded_fallbacks;
  std::string why;
  EXPECT_TRUE(is_feasible(l, p, &why)) << why;
  const Schedule s = build_schedule(l, p);
  EXPECT_EQ(check_schedule(l, p, s), "");
  // External slots are as few as the conflict rule allows: the largest external in-degree.
  for (index_t g = 0; g < p.parts; ++g) {
    index_t widest = 0;
    for (index_t k = p.part_ptr[g]; k < p.part_ptr[g + 1]; ++k) {
      const index_t i = p.vertices[k];
      index_t external = 0;
      for (index_t e = l.row_begin(i); e < l.row_end(i); ++e)
        external += p.part[l.col[e]] < g ? 1 : 0;
      widest = std::max(widest, external);
    }
    EXPECT_EQ(s.external_slots[g], widest) << "sub-graph " << g;
  }
  const std::vector<double> b = rhs(l.rows);
  const std::vector<double> x = solve_with_schedule(p, s, b);
  const std::vector<double> ref = apiary::sparse::triangular_solve(l, b);
  EXPECT_LE(relative_error(x, ref), 1e-12);
  const SubgraphDag d = subgraph_dag(l, p);
  // The device layout, run as the GPU task runs it (one barrier per slot, division by
  // the thread of a vertex's last edge), gives the same solution.
  const DevicePlan plan = build_device_plan(l, p, s, d);
  EXPECT_EQ(check_device_plan(plan), "");
  EXPECT_LE(relative_error(solve_with_plan(plan, b), ref), 1e-12);
  sum.parts = p.parts;
  sum.levels = d.levels;
  sum.internal_share = d.internal_share();
  sum.slots = s.total_slots();
  for (index_t g = 0; g < p.parts; ++g)
    sum.max_slots = std::max(sum.max_slots, s.external_slots[g] + s.internal_slots[g]);
  return sum;
}

template <class Allocator>
std::vector<index_t> range(const std::vector<index_t, Allocator>& v, index_t b, index_t e) {
  return {v.begin() + b, v.begin() + e};
}

TEST(ScheduleHand, ChainOfFiveWithNmaxTwo) {
  const Csr<double> l = chain(5);
  const Partition p = partition(l, 2);
  const Schedule s = build_schedule(l, p);
  ASSERT_EQ(check_schedule(l, p, s), "");
  // Sub-graphs {0,1}, {2,3}, {4}: the first has one internal edge, the second one edge in
  // and one inside, the last one edge in.
  EXPECT_EQ(s.external_slots, (std::vector<index_t>{0, 1, 1}));
  EXPECT_EQ(s.internal_slots, (std::vector<index_t>{1, 1, 0}));
  EXPECT_EQ(s.slot_ptr, (std::vector<index_t>{0, 1, 3, 4}));
  EXPECT_EQ(s.edge_ptr, (std::vector<index_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(s.edge_source, (apiary::sparse::UninitVector<index_t>{0, 1, 0, 3}));  // local, permuted, local, permuted
  EXPECT_EQ(s.edge_target, (apiary::sparse::UninitVector<index_t>{1, 0, 1, 0}));
  EXPECT_EQ(s.edge_value, (apiary::sparse::UninitVector<double>{-0.5, -0.6, -0.7, -0.8}));
  EXPECT_EQ(s.ready, (std::vector<index_t>{0, 0, 0}));
  EXPECT_EQ(s.ready_ptr, (std::vector<index_t>{0, 1, 2, 3}));
  EXPECT_EQ(s.division, (std::vector<index_t>{1, 1}));
  EXPECT_EQ(s.division_ptr, (std::vector<index_t>{0, 1, 1, 2, 2}));
  EXPECT_EQ(s.diagonal, (apiary::sparse::UninitVector<double>{2, 3, 4, 5, 6}));
}

TEST(ScheduleHand, DiamondSerialisesTheJoin) {
  // 0 -> 1, 0 -> 2 run together once x_0 is divided; 1 -> 3 and 2 -> 3 write the same
  // accumulator, so the second waits one slot.
  const Csr<double> l = from_edges(4, {{0, 1}, {0, 2}, {1, 3}, {2, 3}});
  const Partition p = partition(l, 4);
  const Schedule s = build_schedule(l, p);
  ASSERT_EQ(check_schedule(l, p, s), "");
  EXPECT_EQ(s.external_slots, (std::vector<index_t>{0}));
  EXPECT_EQ(s.internal_slots, (std::vector<index_t>{3}));
  EXPECT_EQ(s.edge_ptr, (std::vector<index_t>{0, 2, 3, 4}));
  EXPECT_EQ(range(s.edge_target, 0, 2), (std::vector<index_t>{1, 2}));
  EXPECT_EQ(s.edge_source[2], 1);
  EXPECT_EQ(s.edge_source[3], 2);
  EXPECT_EQ(s.ready, (std::vector<index_t>{0}));
  EXPECT_EQ(s.division, (std::vector<index_t>{1, 2, 3}));
  EXPECT_EQ(s.division_ptr, (std::vector<index_t>{0, 2, 2, 3}));
}

TEST(ScheduleHand, DiagonalMatrixHasNoSlots) {
  const Csr<double> l = from_edges(9, {});
  for (index_t n_max : {1, 4, 9}) {
    const Partition p = partition(l, n_max);
    const Schedule s = build_schedule(l, p);
    ASSERT_EQ(check_schedule(l, p, s), "");
    EXPECT_EQ(s.total_slots(), 0);
    for (index_t g = 0; g < p.parts; ++g) EXPECT_EQ(s.internal_slots[g], 0);
    EXPECT_EQ(s.ready.size(), 9u);
    const std::vector<double> x = solve_with_schedule(p, s, rhs(9));
    EXPECT_LE(relative_error(x, apiary::sparse::triangular_solve(l, rhs(9))), 1e-15);
  }
}

TEST(ScheduleHand, ExternalEdgesTakeOneSlotEachPerTarget) {
  // 0, 1, 2 feed 3 and 4; with the sources in sub-graph 0 every edge into sub-graph 1 is
  // external: three slots, two edges in each. (partition() itself deals the roots over
  // both sub-graphs, so the partition is written by hand.)
  const Csr<double> l = from_edges(5, {{0, 3}, {1, 3}, {2, 3}, {0, 4}, {1, 4}, {2, 4}});
  Partition p;
  p.n_max = 3;
  p.parts = 2;
  p.part = {0, 0, 0, 1, 1};
  p.part_ptr = {0, 3, 5};
  p.vertices = {0, 1, 2, 3, 4};
  const Schedule s = build_schedule(l, p);
  ASSERT_EQ(check_schedule(l, p, s), "");
  const std::vector<double> b = rhs(5);
  EXPECT_LE(relative_error(solve_with_schedule(p, s, b), apiary::sparse::triangular_solve(l, b)),
            1e-15);
  EXPECT_EQ(s.external_slots[1], 3);
  EXPECT_EQ(s.internal_slots[1], 0);
  for (index_t t = s.slot_ptr[1]; t < s.slot_ptr[2]; ++t)
    EXPECT_EQ(s.edge_ptr[t + 1] - s.edge_ptr[t], 2);
}

// Vertices 0 .. n/2-1 in sub-graph 0, the rest in sub-graph 1.
Partition halves(index_t n) {
  Partition p;
  p.n_max = n - n / 2;
  p.parts = 2;
  p.part_ptr = {0, n / 2, n};
  for (index_t i = 0; i < n; ++i) {
    p.part.push_back(i < n / 2 ? 0 : 1);
    p.vertices.push_back(i);
  }
  return p;
}

// 300 targets with 3 external edges each (900 edges) over the 256 threads of a task:
// 44 threads take two targets, so the device plan has 6 external rows of 256, 256, 256,
// 44, 44, 44 edges (the schedule's 3 external slots of 300 would take 6 barriers).
TEST(DevicePlanLayout, ExternalRowsGiveEachTargetToOneThread) {
  const index_t half = 300;
  std::vector<std::pair<index_t, index_t>> edges;
  for (index_t i = 0; i < half; ++i)
    for (index_t k = 0; k < 3; ++k) edges.emplace_back((i + 7 * k) % half, half + i);
  const Csr<double> l = from_edges(2 * half, edges);
  const Partition p = halves(2 * half);
  const Schedule s = build_schedule(l, p);
  ASSERT_EQ(check_schedule(l, p, s), "");
  EXPECT_EQ(s.external_slots, (std::vector<index_t>{0, 3}));
  const DevicePlan plan = build_device_plan(l, p, s, subgraph_dag(l, p));
  ASSERT_EQ(check_device_plan(plan), "");
  ASSERT_EQ(plan.external_slots, (std::vector<index_t>{0, 6}));
  std::vector<index_t> widths;
  for (index_t t = plan.slot_ptr[1]; t < plan.slot_ptr[2]; ++t) widths.push_back(plan.edge_ptr[t + 1] - plan.edge_ptr[t]);
  EXPECT_EQ(widths, (std::vector<index_t>{256, 256, 256, 44, 44, 44}));
  // The values are divided by the target's diagonal (2 + vertex).
  for (index_t e = plan.edge_ptr[plan.slot_ptr[1]]; e < plan.edge_ptr[plan.slot_ptr[2]]; ++e) {
    const index_t j = plan.edge_source[e], i = half + plan.edge_target[e];
    EXPECT_DOUBLE_EQ(plan.edge_value[e], (-0.5 - 0.1 * j) / (2.0 + i));
  }
  const std::vector<double> b = rhs(l.rows);
  EXPECT_LE(relative_error(solve_with_plan(plan, b), apiary::sparse::triangular_solve(l, b)), 1e-12);
  // The headers a task starts from.
  const std::vector<SubgraphTask> tasks = subgraph_tasks(plan);
  ASSERT_EQ(tasks.size(), 2u);
  EXPECT_EQ(tasks[1].g, 1);
  EXPECT_EQ(tasks[1].base, half);
  EXPECT_EQ(tasks[1].size, half);
  EXPECT_EQ(tasks[1].first_internal, tasks[1].first_slot + 6);
  EXPECT_EQ(tasks[1].end_slot, tasks[1].first_internal);
  EXPECT_EQ(tasks[1].end_edge - tasks[1].first_edge, 3 * half);
  // Tasks of 512 threads: each target's edges to a thread of its own, three rows of 300.
  const DevicePlan wide = build_device_plan(l, p, s, subgraph_dag(l, p), false, kWideTasslThreads);
  EXPECT_EQ(wide.threads, kWideTasslThreads);
  ASSERT_EQ(check_device_plan(wide), "");
  widths.clear();
  for (index_t t = wide.slot_ptr[1]; t < wide.slot_ptr[2]; ++t) widths.push_back(wide.edge_ptr[t + 1] - wide.edge_ptr[t]);
  EXPECT_EQ(widths, (std::vector<index_t>{half, half, half}));
  EXPECT_LE(relative_error(solve_with_plan(wide, b), apiary::sparse::triangular_solve(l, b)), 1e-12);
  // The same rows are too wide for 256 threads; no other width is laid out.
  DevicePlan narrowed = wide;
  narrowed.threads = kTasslThreads;
  EXPECT_NE(check_device_plan(narrowed).find("wider than a task"), std::string::npos) << check_device_plan(narrowed);
  EXPECT_THROW(build_device_plan(l, p, s, subgraph_dag(l, p), false, 300), std::invalid_argument);
}

TEST(DevicePlanLayout, CheckCatchesASharedTargetAndAWideRow) {
  const Csr<double> l = from_edges(4, {{0, 2}, {1, 2}, {0, 3}});
  const Partition p = halves(4);
  const Schedule s = build_schedule(l, p);
  DevicePlan plan = build_device_plan(l, p, s, subgraph_dag(l, p));
  ASSERT_EQ(check_device_plan(plan), "");
  DevicePlan split = plan;  // target 0 of the second sub-graph at two positions
  ASSERT_EQ(split.external_slots[1], 2);
  const index_t row1 = split.slot_ptr[1] + 1;
  ASSERT_EQ(split.edge_ptr[row1 + 1] - split.edge_ptr[row1], 1);
  std::swap(split.edge_source[split.edge_ptr[row1] - 1], split.edge_source[split.edge_ptr[row1] - 2]);
  std::swap(split.edge_target[split.edge_ptr[row1] - 1], split.edge_target[split.edge_ptr[row1] - 2]);
  EXPECT_NE(check_device_plan(split).find("two positions"), std::string::npos) << check_device_plan(split);
  DevicePlan wide = plan;  // a second row longer than the first
  wide.edge_ptr[row1] -= 1;
  EXPECT_NE(check_device_plan(wide).find("longer than the one before"), std::string::npos) << check_device_plan(wide);
}

TEST(ScheduleCheck, ReportsBrokenSchedules) {
  const Csr<double> l = from_edges(4, {{0, 1}, {0, 2}, {1, 3}, {2, 3}});
  const Partition p = partition(l, 4);
  const Schedule good = build_schedule(l, p);

  Schedule conflict = good;  // both edges into 3 in one slot
  conflict.edge_ptr = {0, 2, 4, 4};
  conflict.division_ptr = {0, 2, 3, 3};
  EXPECT_NE(check_schedule(l, p, conflict).find("rule a"), std::string::npos)
      << check_schedule(l, p, conflict);

  Schedule early = good;  // x_1 read in the slot that divides it
  early.division_ptr = {0, 1, 2, 3};
  early.division = {2, 1, 3};
  EXPECT_NE(check_schedule(l, p, early).find("rule"), std::string::npos)
      << check_schedule(l, p, early);

  Schedule wrong_value = good;
  wrong_value.edge_value[0] += 1;
  EXPECT_NE(check_schedule(l, p, wrong_value).find("value"), std::string::npos);

  Schedule dropped = good;  // the last edge removed
  dropped.edge_ptr.back() = 3;
  dropped.edge_source.pop_back();
  dropped.edge_target.pop_back();
  dropped.edge_value.pop_back();
  EXPECT_NE(check_schedule(l, p, dropped), "");
}

TEST(ScheduleErrors, RejectsBadInput) {
  const Csr<double> l = chain(4);
  Partition p = partition(l, 2);
  Partition infeasible = p;
  infeasible.part = {1, 1, 0, 0};
  infeasible.vertices = {2, 3, 0, 1};
  EXPECT_THROW(build_schedule(l, infeasible), std::invalid_argument);

  Csr<double> zero = l;
  zero.val[zero.row_end(2) - 1] = 0.0;
  try {
    build_schedule(zero, p);
    FAIL() << "zero diagonal accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("zero diagonal at row 2"), std::string::npos) << e.what();
  }
  const Schedule s = build_schedule(l, p);
  EXPECT_THROW(solve_with_schedule(p, s, std::vector<double>(3, 1.0)), std::invalid_argument);
}

// analyze schedules on several threads (slots: ranges of sub-graphs; edges: ranges of
// rows that split sub-graphs): every array must be what one thread makes (ranges down to
// one edge, so that small cases are split too), its candidates' slots must be the whole
// schedule's, and placing the edges of those slots must give the whole schedule.
TEST(ScheduleThreads, RangesOnSeveralThreadsGiveTheSameSchedule) {
  auto same = [](const Csr<double>& l, index_t n_max, const std::string& label) {
    SCOPED_TRACE(label);
    const Partition p = partition(l, n_max);
    const Schedule one = detail::schedule_of_feasible(l, p);
    for (unsigned threads : {2u, 3u, 8u}) {
      const Schedule many = detail::schedule_of_feasible(l, p, threads, 1);
      EXPECT_EQ(many.external_slots, one.external_slots);
      EXPECT_EQ(many.internal_slots, one.internal_slots);
      EXPECT_EQ(many.slot_ptr, one.slot_ptr);
      EXPECT_EQ(many.edge_ptr, one.edge_ptr);
      EXPECT_EQ(many.edge_source, one.edge_source);
      EXPECT_EQ(many.edge_target, one.edge_target);
      EXPECT_EQ(many.edge_value, one.edge_value);
      EXPECT_EQ(many.ready_ptr, one.ready_ptr);
      EXPECT_EQ(many.ready, one.ready);
      EXPECT_EQ(many.division_ptr, one.division_ptr);
      EXPECT_EQ(many.division, one.division);
      EXPECT_EQ(many.diagonal, one.diagonal);
      EXPECT_EQ(many.division_slot, one.division_slot);
      // The slots alone (what analyze compares its candidates by) are the whole
      // schedule's, and nothing else is filled in.
      Schedule slots = detail::schedule_of_feasible(l, p, threads, 1, detail::ScheduleContent::slots);
      EXPECT_EQ(slots.subgraphs, one.subgraphs);
      EXPECT_EQ(slots.external_slots, one.external_slots);
      EXPECT_EQ(slots.internal_slots, one.internal_slots);
      EXPECT_EQ(slots.slot_ptr, one.slot_ptr);
      EXPECT_EQ(slots.edge_ptr, one.edge_ptr);
      EXPECT_EQ(slots.division_slot, one.division_slot);
      EXPECT_EQ(slots.edges(), 0u);
      EXPECT_TRUE(slots.division.empty() && slots.ready.empty() && slots.diagonal.empty());
      // Their edges placed on another number of threads (analyze: all of them).
      detail::place_edges(l, p, slots, threads + 1, 1);
      EXPECT_EQ(slots.edge_ptr, one.edge_ptr);
      EXPECT_EQ(slots.edge_source, one.edge_source);
      EXPECT_EQ(slots.edge_target, one.edge_target);
      EXPECT_EQ(slots.edge_value, one.edge_value);
      EXPECT_EQ(slots.ready_ptr, one.ready_ptr);
      EXPECT_EQ(slots.ready, one.ready);
      EXPECT_EQ(slots.division_ptr, one.division_ptr);
      EXPECT_EQ(slots.division, one.division);
      EXPECT_EQ(slots.diagonal, one.diagonal);
    }
    EXPECT_EQ(check_schedule(l, p, one), "");
  };
  apiary::sptrsv::testing::for_each_random_dag(same);
  apiary::sptrsv::testing::for_each_structured_case(same);
  // Two zero diagonals in different ranges: the first in partition order is reported.
  Csr<double> zero = chain(40);
  zero.val[zero.row_end(30) - 1] = 0.0;
  zero.val[zero.row_end(38) - 1] = 0.0;
  try {
    detail::schedule_of_feasible(zero, partition(zero, 4), 8, 1);
    FAIL() << "zero diagonal accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("zero diagonal at row 30"), std::string::npos) << e.what();
  }
}

// analyze stops a candidate's slots pass once the model has ruled it out: a stop that
// says true ends it early (fewer edges counted than the whole schedule has, on one
// thread and on several), and one that never does changes nothing.
TEST(ScheduleThreads, StopEndsTheSlotsPassEarly) {
  const Csr<double> l = apiary::sparse::lower_triangle(apiary::sparse::poisson2d<double>(120, 120));
  for (index_t n_max : {64, 14400}) {  // many sub-graphs, and one (stopped inside it)
    SCOPED_TRACE(n_max);
    const Partition p = partition(l, n_max);
    const Schedule whole = detail::schedule_of_feasible(l, p, 1, 1, detail::ScheduleContent::slots);
    for (unsigned threads : {1u, 4u}) {
      std::atomic<int> asked{0};
      const Schedule stopped = detail::schedule_of_feasible(l, p, threads, 1, detail::ScheduleContent::slots,
                                                            [&] { return ++asked > 2; });
      EXPECT_GT(asked.load(), 2);
      EXPECT_LT(stopped.edge_ptr.back(), whole.edge_ptr.back());
      const Schedule kept = detail::schedule_of_feasible(l, p, threads, 1, detail::ScheduleContent::slots,
                                                         [] { return false; });
      EXPECT_EQ(kept.slot_ptr, whole.slot_ptr);
      EXPECT_EQ(kept.edge_ptr, whole.edge_ptr);
      EXPECT_EQ(kept.division_slot, whole.division_slot);
    }
  }
}

TEST(PlanSolve, RandomDagsMatchForwardSubstitution) {
  apiary::sptrsv::testing::for_each_random_dag(
      [](const Csr<double>& l, index_t n_max, const std::string& label) { expect_solves(l, n_max, label); });
}

TEST(PlanSolve, BlockDiagonalAndPoissonMatchForwardSubstitution) {
  apiary::sptrsv::testing::for_each_structured_case(
      [](const Csr<double>& l, index_t n_max, const std::string& label) { expect_solves(l, n_max, label); });
}

// The other splits' partitions through the same schedule, layout and emulated solve.
TEST(PlanSolve, BandsAndTilesMatchForwardSubstitution) {
  for (Split split : {Split::bands, Split::tiles}) {
    auto solves = [split](const Csr<double>& l, index_t n_max, const std::string& label) {
      expect_solves(l, n_max, label, split);
    };
    apiary::sptrsv::testing::for_each_random_dag(solves);
    apiary::sptrsv::testing::for_each_structured_case(solves);
  }
  expect_solves(apiary::sparse::lower_triangle(apiary::sparse::poisson3d<double>(30, 30, 30)), 1000,
                "poisson3d:30 in boxes of 10^3", Split::tiles);
}

TEST(PlanSolve, Poisson300Statistics) {
  const Csr<double> l = apiary::sparse::lower_triangle(apiary::sparse::poisson2d<double>(300, 300));
  const Summary s = expect_solves(l, 256, "poisson2d:300");
  std::printf(
      "[ stats    ] tril(poisson2d:300) n_max 256: %d sub-graphs, %d levels, internal share %.4f, "
      "%lld slots, max %d per sub-graph, %d heuristic runs, %d fallbacks\n",
      s.parts, s.levels, s.internal_share, static_cast<long long>(s.slots), s.max_slots, s.attempts,
      s.fallbacks);
  EXPECT_GE(s.parts, (300 * 300 + 255) / 256);
}

TEST(PlanSolve, SharedRealMatrices) {
  const auto cases = apiary::sptrsv::testing::shared_lower_triangles();
  if (cases.empty()) GTEST_SKIP() << "no shared matrices at " << APIARY_SHARED_MATRICES;
  for (const auto& [name, l] : cases) {
    const Summary s = expect_solves(l, 256, name);
    std::printf(
        "[ stats    ] %s (n %d) n_max 256: %d sub-graphs, %d levels, internal share %.4f, %lld slots, "
        "max %d per sub-graph, %d heuristic runs, %d fallbacks\n",
        name.c_str(), l.rows, s.parts, s.levels, s.internal_share, static_cast<long long>(s.slots), s.max_slots,
        s.attempts, s.fallbacks);
  }
}

TEST(ScheduleModel, PredictedTimeFollowsEquationFive) {
  // Chain of 5, n_max 2: three levels of one sub-graph each, slots (0,1), (1,1), (1,0).
  const Csr<double> l = chain(5);
  const Partition p = partition(l, 2);
  const ModelConstants c{10.0, 3.0, 1.0};
  EXPECT_DOUBLE_EQ(predicted_time(subgraph_dag(l, p), build_schedule(l, p), c),
                   3 * 10.0 + 1 + 4 + 3);

  // Two independent diamonds in one level: the slower sub-graph counts, not the sum.
  const Csr<double> two = from_edges(8, {{0, 1}, {0, 2}, {1, 3}, {2, 3}, {4, 5}, {5, 6}});
  const Partition q = partition(two, 4);
  ASSERT_EQ(q.parts, 2);
  EXPECT_DOUBLE_EQ(predicted_time(subgraph_dag(two, q), build_schedule(two, q), c), 10.0 + 3 * 1.0);
}

TEST(ScheduleModel, SlotRoundsCountWideSlotsSeveralTimes) {
  // A star: 0 -> 1..9 all internal with n_max 10: one slot of 9 edges (no two share a
  // target), so one round with 16 threads and three with 4.
  std::vector<std::pair<index_t, index_t>> edges;
  for (index_t i = 1; i < 10; ++i) edges.emplace_back(0, i);
  const Csr<double> l = from_edges(10, edges);
  const Partition p = partition(l, 10);
  const Schedule s = build_schedule(l, p);
  ASSERT_EQ(s.internal_slots[0], 1);
  EXPECT_EQ(slot_rounds(s, 0, false, 0), 1);
  EXPECT_EQ(slot_rounds(s, 0, false, 16), 1);
  EXPECT_EQ(slot_rounds(s, 0, false, 4), 3);
  EXPECT_EQ(slot_rounds(s, 0, true, 4), 0);
  EXPECT_DOUBLE_EQ(predicted_time(subgraph_dag(l, p), s, {10.0, 3.0, 1.0, 4}), 10.0 + 3 * 1.0);
}

TEST(ScheduleModel, ChooseNmaxFollowsTheConstants) {
  // A chain of 64: n_max 64 is one sub-graph with 63 internal slots; n_max 1 is 64
  // levels of one external slot each (none for the first); n_max 8 is 8 levels of
  // 1 external + 7 internal slots (no external in the first).
  const Csr<double> l = chain(64);
  const std::vector<index_t> candidates{1, 8, 64};
  // Costly synchronisation: a single level wins (1 + 6.3 against 127 and 8 + 7 + 5.6).
  EXPECT_EQ(choose_n_max(l, candidates, {1.0, 1.0, 0.1}), 64);
  // Local slots far dearer than levels: one vertex per sub-graph wins (127 against 575
  // and 631).
  EXPECT_EQ(choose_n_max(l, candidates, {1.0, 1.0, 10.0}), 1);
  // Balanced: n_max 8 costs 8 + 7 + 56 * 0.5 = 43, n_max 1 costs 127, n_max 64 32.5.
  EXPECT_EQ(choose_n_max(l, candidates, {1.0, 1.0, 0.5}), 64);
  EXPECT_EQ(choose_n_max(l, std::vector<index_t>{8, 1}, {1.0, 1.0, 0.5}), 8);
  EXPECT_THROW(choose_n_max(l, std::vector<index_t>{}, {1, 1, 1}), std::invalid_argument);
  EXPECT_THROW(choose_n_max(l, std::vector<index_t>{0}, {1, 1, 1}), std::invalid_argument);
}

}  // namespace
