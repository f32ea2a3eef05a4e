// Every Jacobi variant under every scheduler: the iterates and the iteration count of
// the host reference (sparse::jacobi), the device arithmetic bit for bit as the host
// model predicts it, split rows, slow convergence, the error and non-convergence paths,
// and the stop path of the variants that run ahead of the decision. Skips without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

#include "sparse/generators.hpp"
#include "sparse/reference.hpp"
#include "tasks/jacobi/jacobi.hpp"
#include "tests/runtime/scheduler_param.hpp"
#include "tests/tasks/jacobi/jacobi_cases.hpp"

// Readable parameters in test listings (found by ADL).
namespace apiary::jacobi {
inline void PrintTo(Variant v, std::ostream* out) { *out << to_string(v); }
}  // namespace apiary::jacobi

namespace apiary::jacobi {
namespace {

using apiary::testing::scaled;
using sparse::Csr;
using testing::change_tolerance;
using testing::changes_of;
using testing::relative_difference;
using testing::with_long_rows;

using Param = std::tuple<Variant, Scheduler>;

class Jacobi : public ::testing::TestWithParam<Param> {
 protected:
  void SetUp() override { APIARY_REQUIRE_GPU(); }

  Variant variant() const { return std::get<0>(GetParam()); }
  Scheduler scheduler() const { return std::get<1>(GetParam()); }

  JacobiRun solve(JacobiSolver& solver) { return solver.solve(variant(), scheduler()); }

  // The device run against the reference (iteration count, convergence, every iterate
  // or the last one within 1e-12) and against the host model (bit for bit).
  JacobiRun check(const Csr<double>& a, const std::vector<double>& b, const JacobiOptions& o) {
    JacobiSolver solver(a, b, o);
    const JacobiRun run = solve(solver);

    sparse::JacobiOptions ro;
    ro.tolerance = o.tolerance;
    ro.max_iterations = o.max_iterations;
    ro.keep_history = o.keep_history;
    const sparse::JacobiResult<double> ref = sparse::jacobi(a, b, ro);
    EXPECT_EQ(run.iterations, ref.iterations);
    EXPECT_EQ(run.converged, ref.converged);
    EXPECT_LE(relative_difference(run.x, ref.x), 1e-12);
    EXPECT_NEAR(run.last_change, ref.last_change, change_tolerance(ref.x));
    if (o.keep_history) {
      EXPECT_EQ(run.history.size(), ref.history.size());
      for (std::size_t k = 0; k < std::min(run.history.size(), ref.history.size()); ++k)
        EXPECT_LE(relative_difference(run.history[k], ref.history[k]), 1e-12) << "iterate " << k + 1;
      const std::vector<double> ref_changes = changes_of(ref.history, ref.x.size());
      for (std::size_t k = 0; k < std::min(run.changes.size(), ref_changes.size()); ++k)
        EXPECT_NEAR(run.changes[k], ref_changes[k], change_tolerance(ref.history[k])) << "change " << k;
    }

    const ModelRun model = model_solve(solver.problem(), solver.partition(), b, o.tolerance, o.max_iterations);
    EXPECT_EQ(run.iterations, model.iterations);
    EXPECT_TRUE(run.x == model.x) << "the device's iterate differs from the host model's in the last bits";
    EXPECT_TRUE(run.changes == model.changes) << "the device's changes differ from the host model's";
    EXPECT_EQ(run.stats.has_value(), uses_scheduler(variant()));
    return run;
  }
};

// The row tasks and check tasks a run must have executed over `chunks` chunks, when it
// stopped before the limit (stopped_early) or at it.
void expect_task_counts(const JacobiRun& run, std::size_t chunks, bool stopped_early, const JacobiOptions& o) {
  if (!run.stats) {
    EXPECT_FALSE(uses_scheduler(run.variant));
    return;
  }
  const auto k = static_cast<std::uint64_t>(run.iterations);
  const auto c = static_cast<std::uint64_t>(chunks);
  const std::uint64_t rows = run.stats->types.at(0).executed;
  switch (run.variant) {
    case Variant::stages_phases:
      EXPECT_EQ(rows, c * k);
      EXPECT_EQ(run.stats->types.at(1).executed, k);  // one check per iteration
      // Rows, check, rows, ..., check: the megakernel counts each change of phase.
      if (run.scheduler == Scheduler::megakernel) {
        EXPECT_EQ(run.stats->phase_switches, 2 * k - 1);
      }
      break;
    case Variant::stages_deps:
      // The row tasks of the iteration after the stop were created and are released
      // (and return at once), so none is left waiting.
      EXPECT_EQ(rows, c * (k + (stopped_early ? 1 : 0)));
      EXPECT_EQ(run.stats->types.at(1).executed, k);
      EXPECT_LE(run.stats->peak_waiting, c + 1);
      break;
    case Variant::autonomous:
      // The iteration after the stop starts before the decision: some of it may run.
      EXPECT_GE(rows, c * k);
      EXPECT_LE(rows, c * (k + (stopped_early ? 1 : 0)));
      break;
    case Variant::checkpoints: {
      // Every iteration of the window in which it stopped ran, and one checkpoint per window.
      const auto interval = static_cast<std::uint64_t>(o.checkpoint_interval);
      const std::uint64_t ran = std::min<std::uint64_t>((k + interval - 1) / interval * interval,
                                                        static_cast<std::uint64_t>(o.max_iterations));
      EXPECT_EQ(rows, c * ran);
      EXPECT_EQ(run.stats->types.at(1).executed, (ran + interval - 1) / interval);
      EXPECT_LE(run.stats->peak_waiting, c + 1);
      break;
    }
    default:
      FAIL() << "a baseline has no task statistics";
  }
}

TEST_P(Jacobi, DiagonallyDominantMatchesTheReference) {
  const Csr<double> a = sparse::random_diagonally_dominant<double>(scaled(10000, 500), 11, 27, 3);
  JacobiOptions o;
  o.tolerance = 1e-10;
  const JacobiRun run = check(a, make_rhs(Rhs::random, a.rows), o);
  EXPECT_TRUE(run.converged);
  EXPECT_GT(run.iterations, 5);
  EXPECT_GT(run.milliseconds, 0.0);
}

TEST_P(Jacobi, EveryIterateMatchesTheReference) {
  const Csr<double> a = sparse::random_diagonally_dominant<double>(scaled(3000, 300), 2, 40, 11);
  JacobiOptions o;
  o.tolerance = 1e-11;
  o.keep_history = true;
  const JacobiRun run = check(a, make_rhs(Rhs::ones, a.rows), o);
  EXPECT_EQ(run.history.size(), static_cast<std::size_t>(run.iterations));
}

TEST_P(Jacobi, RowsLongerThanTheBudgetAreSplitAndCombined) {
  const index_t n = scaled(4000, 700);
  const std::vector<index_t> long_rows{0, n / 2, n / 2 + 1, n - 1};
  const Csr<double> a = with_long_rows(n, 11, 27, long_rows, 2000);
  JacobiOptions o;
  o.tolerance = 1e-10;
  o.partition.nnz_budget = 512;
  const JacobiRun run = check(a, make_rhs(Rhs::random, a.rows), o);
  JacobiSolver solver(a, make_rhs(Rhs::random, a.rows), o);
  EXPECT_EQ(solver.partition().split_rows, 4);
  EXPECT_TRUE(run.converged);
}

// The task programs update a chunk through shared memory when it has at most 256 rows
// and 4096 entries (device.cuh: fits_stage), otherwise directly; the kernels always
// directly. Partitions with chunks of each kind (many short rows, more rows than a
// stage, more entries than a stage, whole rows longer than half a stage next to short
// ones), every iterate bit for bit against the host model.
TEST_P(Jacobi, ChunksInsideAndOutsideTheSharedStageAgree) {
  const index_t side = scaled(60, 24);
  const Csr<double> grid = sparse::poisson2d<double>(side, side);
  const Csr<double> wide = sparse::random_diagonally_dominant<double>(scaled(6000, 600), 11, 27, 5);
  const index_t n = scaled(4000, 2600);
  const std::vector<index_t> long_rows{0, 1, n / 3, n / 3 + 2, n - 1};
  const Csr<double> longer = with_long_rows(n, 11, 27, long_rows, 2300);
  // Past the stage the row tasks take update_rows<4>: rows of several entries a lane, so
  // several trips (uneven: 8 lanes, up to 39 entries), and one lane a row in sets of 1024
  // rows (narrow).
  const Csr<double> uneven = sparse::random_diagonally_dominant<double>(scaled(6000, 600), 2, 40, 6);
  const Csr<double> narrow = sparse::random_diagonally_dominant<double>(scaled(20000, 3000), 2, 3, 7);
  struct Case {
    const Csr<double>* a;
    int nnz_budget, row_budget;
  };
  for (const Case& c : {Case{&grid, 4096, 256}, Case{&grid, 8192, 1000}, Case{&wide, 8192, 1000},
                        Case{&wide, 512, 256}, Case{&longer, 8192, 1000}, Case{&uneven, 8192, 1000},
                        Case{&narrow, 16384, 5000}}) {
    JacobiOptions o;
    o.tolerance = 0;
    o.max_iterations = 25;
    o.keep_history = true;
    o.partition.nnz_budget = c.nnz_budget;
    o.partition.row_budget = c.row_budget;
    SCOPED_TRACE(::testing::Message() << c.a->rows << " rows, budgets " << c.nnz_budget << " / " << c.row_budget);
    const JacobiRun run = check(*c.a, make_rhs(Rhs::random, c.a->rows), o);
    EXPECT_EQ(run.iterations, 25);
  }
}

TEST_P(Jacobi, TinyBudgetsSplitNearlyEveryRow) {
  const Csr<double> a = sparse::random_diagonally_dominant<double>(scaled(2000, 300), 1, 30, 4);
  JacobiOptions o;
  o.tolerance = 1e-10;
  o.partition.nnz_budget = 4;
  o.partition.row_budget = 3;
  o.keep_history = true;
  check(a, make_rhs(Rhs::random, a.rows), o);
}

TEST_P(Jacobi, PoissonConvergesSlowlyInTheReferencesIterations) {
  const index_t side = scaled(32, 12);
  const Csr<double> a = sparse::poisson2d<double>(side, side);
  JacobiOptions o;
  o.tolerance = 1e-3;
  o.max_iterations = 20000;
  const JacobiRun run = check(a, make_rhs(Rhs::ones, a.rows), o);
  EXPECT_TRUE(run.converged);
  EXPECT_GT(run.iterations, 100);  // slow: the point of the case
}

TEST_P(Jacobi, NonConvergenceStopsAtTheLimitAndSaysSo) {
  const Csr<double> a = sparse::poisson2d<double>(24, 24);
  JacobiOptions o;
  o.tolerance = 1e-14;
  o.max_iterations = 37;
  const JacobiRun run = check(a, make_rhs(Rhs::ones, a.rows), o);
  EXPECT_FALSE(run.converged);
  EXPECT_EQ(run.iterations, 37);
  EXPECT_EQ(run.changes.size(), 37u);
  EXPECT_GE(run.last_change, 1e-14);
  JacobiSolver solver(a, make_rhs(Rhs::ones, a.rows), o);
  expect_task_counts(solve(solver), solver.partition().chunks.size(), false, o);
}

TEST_P(Jacobi, StopBeforeTheLimitKeepsTheAnswerAndEndsCleanly) {
  // Converges well before the limit: the stages-deps check releases the row tasks it
  // holds back, the autonomous variant has started the next iteration before deciding.
  // Neither may touch the answer, and the run must end with nothing left waiting.
  const Csr<double> a = sparse::random_diagonally_dominant<double>(scaled(6000, 400), 3, 20, 21);
  JacobiOptions o;
  o.tolerance = 1e-8;
  o.max_iterations = 500;
  const JacobiRun run = check(a, make_rhs(Rhs::random, a.rows), o);
  ASSERT_TRUE(run.converged);
  ASSERT_LT(run.iterations, o.max_iterations);
  JacobiSolver solver(a, make_rhs(Rhs::random, a.rows), o);
  expect_task_counts(solve(solver), solver.partition().chunks.size(), true, o);
  // Another window length: the stop falls elsewhere inside a window.
  o.checkpoint_interval = 3;
  JacobiSolver three(a, make_rhs(Rhs::random, a.rows), o);
  const JacobiRun run3 = solve(three);
  EXPECT_EQ(run3.iterations, run.iterations);
  EXPECT_TRUE(run3.x == run.x);
  expect_task_counts(run3, three.partition().chunks.size(), true, o);
}

TEST_P(Jacobi, ConvergingAtTheLimitCountsAsConverged) {
  const Csr<double> a = sparse::random_diagonally_dominant<double>(scaled(2000, 300), 3, 20, 5);
  const std::vector<double> b = make_rhs(Rhs::ones, a.rows);
  JacobiOptions o;
  o.tolerance = 1e-8;
  sparse::JacobiOptions ro;
  ro.tolerance = o.tolerance;
  const int needed = sparse::jacobi(a, b, ro).iterations;
  o.max_iterations = needed;  // the last allowed update is the one that converges
  const JacobiRun run = check(a, b, o);
  EXPECT_TRUE(run.converged);
  EXPECT_EQ(run.iterations, needed);
}

TEST_P(Jacobi, OneIterationAndZeroIterations) {
  const Csr<double> a = sparse::random_diagonally_dominant<double>(500, 3, 9, 2);
  JacobiOptions o;
  o.max_iterations = 1;
  const JacobiRun one = check(a, make_rhs(Rhs::random, a.rows), o);
  EXPECT_EQ(one.iterations, 1);
  o.max_iterations = 0;
  JacobiSolver none(a, make_rhs(Rhs::random, a.rows), o);
  const JacobiRun zero = solve(none);
  EXPECT_EQ(zero.iterations, 0);
  EXPECT_FALSE(zero.converged);
  EXPECT_EQ(zero.x, std::vector<double>(500, 1.0));
}

TEST_P(Jacobi, RepeatedSolvesAndOtherVariantsGiveTheSameBits) {
  const Csr<double> a = with_long_rows(scaled(3000, 600), 4, 16, std::vector<index_t>{17}, 1500);
  JacobiOptions o;
  o.tolerance = 1e-9;
  o.partition.nnz_budget = 256;
  JacobiSolver solver(a, make_rhs(Rhs::random, a.rows), o);
  const JacobiRun first = solve(solver);
  const JacobiRun again = solve(solver);
  EXPECT_EQ(first.iterations, again.iterations);
  EXPECT_TRUE(first.x == again.x);
  for (Variant other : kAllVariants) {
    const JacobiRun r = solver.solve(other, scheduler());
    EXPECT_EQ(r.iterations, first.iterations) << to_string(other);
    EXPECT_TRUE(r.x == first.x) << to_string(other);
    EXPECT_TRUE(r.changes == first.changes) << to_string(other);
  }
}

// With the runtime's trace on (apiary jacobi --trace), a task variant returns one record
// per task it ran, named by its queue, with the same answer; the baselines return none.
TEST_P(Jacobi, TracedSolveRecordsEveryTask) {
  APIARY_REQUIRE_TRACE_KERNELS();
  const Csr<double> a = sparse::random_diagonally_dominant<double>(scaled(2000, 300), 11, 27, 8);
  JacobiOptions o;
  o.tolerance = 0;
  o.max_iterations = 12;
  o.run.trace = true;
  JacobiSolver solver(a, make_rhs(Rhs::random, a.rows), o);
  const JacobiRun run = solve(solver);
  EXPECT_EQ(run.iterations, 12);
  if (!run.stats) {
    EXPECT_TRUE(run.trace.empty());
    return;
  }
  std::uint64_t executed = 0;
  for (const auto& t : run.stats->types) executed += t.executed;
  EXPECT_EQ(run.trace.size(), executed);
  ASSERT_FALSE(run.queue_names.empty());
  EXPECT_EQ(run.queue_names[0], "JacobiRows");
  for (const TraceRecord& r : run.trace) {
    ASSERT_LT(r.queue, run.queue_names.size());
    EXPECT_LE(r.start_ns, r.end_ns);
  }
  JacobiOptions plain = o;
  plain.run.trace = false;
  JacobiSolver untraced(a, make_rhs(Rhs::random, a.rows), plain);
  EXPECT_TRUE(solve(untraced).x == run.x);
}

TEST_P(Jacobi, CheckpointIntervalsAndRingSizes) {
  // The interval sets the checkpoints variant's window and, for every variant, how many
  // versions of x the device keeps: the iterates must not depend on either.
  const index_t n = scaled(3000, 600);
  const Csr<double> a = with_long_rows(n, 3, 14, std::vector<index_t>{5, n - 2}, 1200);
  const std::vector<double> b = make_rhs(Rhs::random, a.rows);
  for (int interval : {1, 2, 5, 64}) {
    SCOPED_TRACE("interval " + std::to_string(interval));
    JacobiOptions o;
    o.tolerance = 1e-9;
    o.max_iterations = 200;
    o.partition.nnz_budget = 128;
    o.checkpoint_interval = interval;
    const JacobiRun run = check(a, b, o);
    EXPECT_TRUE(run.converged);
    JacobiSolver solver(a, b, o);
    expect_task_counts(solve(solver), solver.partition().chunks.size(), true, o);
  }
}

TEST_P(Jacobi, ZeroDiagonalIsAnErrorNamingTheRow) {
  Csr<double> a = sparse::random_diagonally_dominant<double>(100, 3, 5, 1);
  for (index_t k = a.row_begin(42); k < a.row_end(42); ++k)
    if (a.col[k] == 42) a.val[k] = 0.0;
  try {
    JacobiSolver solver(a, make_rhs(Rhs::ones, a.rows), {});
    solve(solver);
    FAIL() << "expected SingularError";
  } catch (const sparse::SingularError& e) {
    EXPECT_EQ(e.row(), 42);
    EXPECT_STREQ(e.what(), "zero diagonal at row 42 (0-based)");
  }
}

// The baselines once, the task variants under every scheduler this build can run.
std::vector<Param> variants_and_schedulers() {
  std::vector<Param> out;
  for (Variant v : kAllVariants) {
    if (!uses_scheduler(v)) {
      out.emplace_back(v, Scheduler::megakernel);
      continue;
    }
    for (Scheduler s : available_schedulers()) out.emplace_back(v, s);
  }
  return out;
}

std::string param_name(const ::testing::TestParamInfo<Param>& info) {
  const auto [v, s] = info.param;
  std::string name(to_string(v));
  if (uses_scheduler(v)) {
    name += '_';
    name += to_string(s);
  }
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(VariantsAndSchedulers, Jacobi, ::testing::ValuesIn(variants_and_schedulers()), param_name);

}  // namespace
}  // namespace apiary::jacobi
