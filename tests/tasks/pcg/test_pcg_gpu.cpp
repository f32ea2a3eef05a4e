// The GPU PCG formulations (ic0 with the triangular-solve module, cusparse-ic0, jacobi,
// cg), in the host loop and (except cusparse-ic0) the task loop, in every ordering
// against the host reference: converged, true residual below 10 tol, iteration counts
// within a few of the reference (GPU and host reductions round differently); the same
// iteration counts in both loops; exact agreement where the arithmetic is the same.
// Breakdown and non-convergence paths in both loops. compare()'s input errors need no
// GPU and run everywhere.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "sparse/reference.hpp"
#include "sparse/transform.hpp"
#include "tasks/pcg/compare.hpp"
#include "tasks/pcg/ic0.hpp"
#include "tasks/pcg/ordering.hpp"
#include "tasks/pcg/pcg.hpp"
#include "tasks/pcg/task_loop.hpp"
#include "tests/gpu_test.hpp"
#include "tests/tasks/pcg/pcg_cases.hpp"

namespace apiary::pcg {
namespace {

struct Prepared {
  Csr<double> a, l;
  std::vector<double> b;
  double shift = 0;
};

Prepared prepare(const Csr<double>& a, Order o) {
  const Ordering ord = make_ordering(a, o);
  Prepared p;
  p.a = sparse::permute_symmetric(a, std::span<const index_t>(ord.perm));
  auto [shift, l] = testing::factor_with_smallest_shift(p.a);
  p.shift = shift;
  p.l = std::move(l);
  p.b = sparse::permute_vector(std::span<const double>(default_rhs(a.rows)), std::span<const index_t>(ord.perm));
  return p;
}

// GPU and host reductions differ in rounding; CG iteration counts drift with the
// conditioning. A few iterations, or a few percent.
int iteration_slack(int reference, bool ill_conditioned) {
  return ill_conditioned ? std::max(5, reference / 10) : std::max(3, reference / 20);
}

void check_all(const testing::SpdCase& c, const std::vector<Method>& methods, bool ill_conditioned) {
  const PcgOptions opt{.tolerance = 1e-8, .max_iterations = ill_conditioned ? 10 * c.a.rows : 0};
  for (Order o : kOrders) {
    const Prepared p = prepare(c.a, o);
    ASSERT_GE(p.shift, 0) << c.name << ": IC(0) breaks down even with shift 1";
    for (Method m : methods)
      for (Loop loop : kLoops) {
        if (!runs_in(m, loop)) continue;
        SCOPED_TRACE(c.name + " " + std::string(to_string(o)) + " " + std::string(to_string(m)) + " " +
                     std::string(to_string(loop)));
        const PcgResult ref = pcg_reference(p.a, p.b, host_preconditioner(m), &p.l, opt);
        ASSERT_TRUE(ref.converged()) << "host reference: " << ref.reason;
        PcgSolver solver(p.a, m, uses_factor(m) ? &p.l : nullptr, {.loop = loop});
        const PcgResult r = solver.solve(p.b, opt);
        EXPECT_TRUE(r.converged()) << r.reason;
        EXPECT_LT(r.residual, opt.tolerance);
        EXPECT_LT(sparse::relative_residual(p.a, std::span<const double>(r.x), std::span<const double>(p.b)),
                  10 * opt.tolerance);
        EXPECT_LE(std::abs(r.iterations - ref.iterations), iteration_slack(ref.iterations, ill_conditioned))
            << "gpu " << r.iterations << " host " << ref.iterations;
        // The first iterations agree closely with the reference.
        ASSERT_FALSE(r.history.empty());
        EXPECT_NEAR(r.history[0], ref.history[0], 1e-8 * ref.history[0]);
      }
  }
}

TEST(PcgGpu, GeneratedMatricesEveryOrderingAndSolver) {
  APIARY_REQUIRE_GPU();
  for (const auto& c : testing::generated_cases()) check_all(c, {kMethods.begin(), kMethods.end()}, false);
}

class SharedSpd : public ::testing::TestWithParam<const char*> {};

TEST_P(SharedSpd, Ic0EveryOrdering) {
  APIARY_REQUIRE_GPU();
  for (const auto& c : testing::shared_spd_cases())
    if (c.name == GetParam()) return check_all(c, {Method::ic0, Method::cusparse_ic0}, true);
  GTEST_SKIP() << GetParam() << " not found (or not SPD-looking) in " << APIARY_SHARED_MATRICES;
}

INSTANTIATE_TEST_SUITE_P(Matrices, SharedSpd, ::testing::ValuesIn(testing::kSharedSpd),
                         [](const auto& info) { return "m" + std::string(info.param); });

// Every triangular-solve variant gives the same preconditioner up to rounding.
TEST(PcgGpu, Ic0WithEveryTriangularSolveVariant) {
  APIARY_REQUIRE_GPU();
  const Prepared p = prepare(sparse::poisson2d<double>(40, 40), Order::rcm);
  const PcgResult ref = pcg_reference(p.a, p.b, HostPreconditioner::ic0, &p.l, {});
  for (sptrsv::Variant v : sptrsv::kVariants) {
    SCOPED_TRACE(std::string(to_string(v)));
    PcgSolver solver(p.a, Method::ic0, &p.l, {.trsv = v});
    const PcgResult r = solver.solve(p.b, {});
    EXPECT_TRUE(r.converged()) << r.reason;
    EXPECT_LE(std::abs(r.iterations - ref.iterations), 3);
  }
}

// Poisson 2D has diagonal 4: Jacobi only scales by powers of two, the same arithmetic
// as CG, so the same iteration count and iterates, on the GPU as on the host. cuBLAS
// and cuSPARSE SpMV (CSR_ALG1) are deterministic: a repeated solve is identical.
TEST(PcgGpu, IdenticalWhereArithmeticIsTheSame) {
  APIARY_REQUIRE_GPU();
  const Prepared p = prepare(sparse::poisson2d<double>(40, 40), Order::natural);
  PcgSolver cg(p.a, Method::cg, nullptr);
  PcgSolver jacobi(p.a, Method::jacobi, nullptr);
  const PcgResult a = cg.solve(p.b, {});
  const PcgResult b = jacobi.solve(p.b, {});
  EXPECT_TRUE(a.converged());
  EXPECT_EQ(a.iterations, b.iterations);
  EXPECT_EQ(a.x, b.x);
  const PcgResult again = cg.solve(p.b, {});
  EXPECT_EQ(a.iterations, again.iterations);
  EXPECT_EQ(a.x, again.x);
}

TEST(PcgGpu, ReportsNonConvergence) {
  APIARY_REQUIRE_GPU();
  const Prepared p = prepare(sparse::poisson3d<double>(12, 12, 12), Order::natural);
  for (Method m : kMethods)
    for (Loop loop : kLoops) {
      if (!runs_in(m, loop)) continue;
      SCOPED_TRACE(std::string(to_string(m)) + " " + std::string(to_string(loop)));
      PcgSolver solver(p.a, m, uses_factor(m) ? &p.l : nullptr, {.loop = loop});
      const PcgResult r = solver.solve(p.b, {.tolerance = 1e-8, .max_iterations = 3});
      EXPECT_EQ(r.stop, Stop::max_iterations);
      EXPECT_EQ(r.iterations, 3);
      EXPECT_EQ(r.history.size(), 3u);
      EXPECT_NE(r.reason.find("not converged after 3 iterations"), std::string::npos) << r.reason;
    }
}

// The task program runs the host loop's iteration: on the same ordering both take the
// same number of iterations (the requirement), for every preconditioner it has.
TEST(PcgGpu, TaskLoopTakesTheHostLoopsIterations) {
  APIARY_REQUIRE_GPU();
  for (const auto& c : testing::generated_cases())
    for (Order o : kOrders) {
      const Prepared p = prepare(c.a, o);
      for (Method m : {Method::ic0, Method::jacobi, Method::cg}) {
        SCOPED_TRACE(c.name + " " + std::string(to_string(o)) + " " + std::string(to_string(m)));
        const Csr<double>* l = uses_factor(m) ? &p.l : nullptr;
        PcgSolver host(p.a, m, l, {.loop = Loop::host}), tasks(p.a, m, l, {.loop = Loop::tasks});
        const PcgResult a = host.solve(p.b, {}), b = tasks.solve(p.b, {});
        EXPECT_TRUE(b.converged()) << b.reason;
        EXPECT_EQ(a.iterations, b.iterations);
        ASSERT_EQ(a.history.size(), b.history.size());
        for (std::size_t k = 0; k < a.history.size(); ++k)
          EXPECT_NEAR(b.history[k], a.history[k], 1e-6 * a.history[k]) << "iteration " << k + 1;
      }
    }
}

// Under every scheduler, and a repeated solve gives the same bits (the reductions have
// a fixed order).
TEST(PcgGpu, TaskLoopEverySchedulerAndRepeatable) {
  APIARY_REQUIRE_GPU();
  const Prepared p = prepare(sparse::poisson2d<double>(30, 30), Order::color);
  const PcgResult ref = pcg_reference(p.a, p.b, HostPreconditioner::ic0, &p.l, {});
  for (Scheduler sched : available_schedulers()) {
    SCOPED_TRACE(std::string(to_string(sched)));
    PcgSolver solver(p.a, Method::ic0, &p.l, {.loop = Loop::tasks, .scheduler = sched});
    const PcgResult a = solver.solve(p.b, {}), b = solver.solve(p.b, {});
    EXPECT_TRUE(a.converged()) << a.reason;
    EXPECT_LE(std::abs(a.iterations - ref.iterations), 3);
    EXPECT_EQ(a.iterations, b.iterations);
    EXPECT_EQ(a.x, b.x);
    EXPECT_EQ(a.history, b.history);
    // The stage profile names every kind of stage of the ic0 cycle once, in cycle order.
    std::vector<std::string> kinds;
    double total = 0;
    for (const auto& [kind, us] : a.stage_us) {
      kinds.push_back(kind);
      EXPECT_GE(us, 0) << kind;
      total += us;
    }
    EXPECT_EQ(kinds, (std::vector<std::string>{"forward", "backward", "spmv", "update"}));
    EXPECT_GT(total, 0);
  }
}

// Stages of a few rows and of one long row: Poisson 2D with budgets of 8 entries and 4
// rows gives hundreds of tasks per stage; a row of every column (an arrow matrix) is a
// chunk of its own with 32 lanes.
TEST(PcgGpu, TaskLoopSmallChunksAndLongRows) {
  APIARY_REQUIRE_GPU();
  Csr<double> arrow;
  const index_t n = 300;
  arrow.rows = arrow.cols = n;
  for (index_t i = 0; i < n; ++i) {
    if (i == 0) {
      for (index_t j = 0; j < n; ++j) {
        arrow.col.push_back(j);
        arrow.val.push_back(j == 0 ? 2.0 * n : 1.0);
      }
    } else {
      arrow.col.insert(arrow.col.end(), {0, i});
      arrow.val.insert(arrow.val.end(), {1.0, 3.0});
    }
    arrow.row_ptr.push_back(static_cast<index_t>(arrow.col.size()));
  }
  for (const Csr<double>& m : {arrow, sparse::poisson2d<double>(20, 20)}) {
    const Prepared p = prepare(m, Order::natural);
    const PcgResult ref = pcg_reference(p.a, p.b, HostPreconditioner::ic0, &p.l, {});
    TaskLoop loop(p.a, HostPreconditioner::ic0, &p.l, Scheduler::megakernel, {.nnz = 8, .rows = 4, .vector_rows = 16});
    const PcgResult r = loop.solve(p.b, {});
    EXPECT_TRUE(r.converged()) << r.reason;
    EXPECT_LE(std::abs(r.iterations - ref.iterations), 3) << "gpu " << r.iterations << " host " << ref.iterations;
    EXPECT_LT(sparse::relative_residual(p.a, std::span<const double>(r.x), std::span<const double>(p.b)), 1e-7);
  }
}

// A diagonal matrix: IC(0) is exact and its solves are all in the update stage (no
// forward or backward stage); PCG ends after one iteration, Jacobi-PCG too.
TEST(PcgGpu, TaskLoopDiagonalMatrixInOneIteration) {
  APIARY_REQUIRE_GPU();
  Csr<double> a;
  const index_t n = 1000;
  a.rows = a.cols = n;
  for (index_t i = 0; i < n; ++i) {
    a.col.push_back(i);
    a.val.push_back(1.0 + static_cast<double>(i % 13));
    a.row_ptr.push_back(i + 1);
  }
  const Csr<double> l = ic0_reference(a, 0);
  const std::vector<double> b = default_rhs(n);
  for (Method m : {Method::ic0, Method::jacobi}) {
    SCOPED_TRACE(std::string(to_string(m)));
    PcgSolver solver(a, m, m == Method::ic0 ? &l : nullptr, {.loop = Loop::tasks});
    const PcgResult r = solver.solve(b, {});
    EXPECT_TRUE(r.converged()) << r.reason;
    EXPECT_EQ(r.iterations, 1);
    EXPECT_LT(sparse::relative_residual(a, std::span<const double>(r.x), std::span<const double>(b)), 1e-12);
  }
}

TEST(PcgGpu, TaskLoopRefusesTheCusparseBaseline) {
  APIARY_REQUIRE_GPU();
  const Prepared p = prepare(sparse::poisson2d<double>(8, 8), Order::natural);
  EXPECT_THROW(PcgSolver(p.a, Method::cusparse_ic0, &p.l, {.loop = Loop::tasks}), std::invalid_argument);
}

Csr<double> indefinite() {
  // Symmetric, positive diagonal, indefinite: [[1, 2], [2, 1]] blocks on a chain.
  Csr<double> a = sparse::poisson2d<double>(6, 6);
  for (index_t i = 0; i < a.rows; ++i)
    for (index_t k = a.row_begin(i); k < a.row_end(i); ++k) a.val[k] = a.col[k] == i ? 1.0 : 2.0;
  return a;
}

TEST(PcgGpu, BreakdownOnIndefiniteMatrix) {
  APIARY_REQUIRE_GPU();
  // diag(1, -1) with b = (1, 1): p.Ap = 0 in the first iteration, on the host as here.
  Csr<double> a;
  a.rows = a.cols = 2;
  a.row_ptr = {0, 1, 2};
  a.col = {0, 1};
  a.val = {1.0, -1.0};
  const std::vector<double> b{1.0, 1.0};
  for (Loop loop : kLoops) {
    SCOPED_TRACE(std::string(to_string(loop)));
    PcgSolver solver(a, Method::cg, nullptr, {.loop = loop});
    const PcgResult r = solver.solve(b, {});
    EXPECT_EQ(r.stop, Stop::breakdown);
    EXPECT_EQ(r.iterations, 0);
    EXPECT_NE(r.reason.find("p.Ap"), std::string::npos) << r.reason;
    EXPECT_NE(r.reason.find("iteration 1"), std::string::npos) << r.reason;
    EXPECT_THROW(PcgSolver(a, Method::jacobi, nullptr, {.loop = loop}), std::invalid_argument);
  }
}

// Input errors come before the GPU check: these pass on any machine.
TEST(PcgCompare, Ic0BreakdownIsAnInputErrorNamingRowAndShift) {
  try {
    CompareOptions o;
    o.orders = {Order::rcm};
    o.methods = {Method::ic0};
    compare(indefinite(), o);
    FAIL() << "expected the breakdown";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("IC(0) breaks down at row"), std::string::npos) << what;
    EXPECT_NE(what.find("rcm-ordered"), std::string::npos) << what;
    EXPECT_NE(what.find("of the input"), std::string::npos) << what;
    EXPECT_NE(what.find("--shift"), std::string::npos) << what;
  }
}

TEST(PcgCompare, RejectsUnsymmetricAndBadOptions) {
  Csr<double> a = sparse::poisson2d<double>(4, 4);
  a.val[1] = -0.5;  // row 0's first off-diagonal entry
  EXPECT_THROW(compare(a, {}), std::invalid_argument);
  const Csr<double> spd = sparse::poisson2d<double>(4, 4);
  CompareOptions no_reps, negative_shift, bad_tolerance;
  no_reps.reps = 0;
  negative_shift.shift = -1;
  bad_tolerance.pcg.tolerance = -1;
  EXPECT_THROW(compare(spd, no_reps), std::invalid_argument);
  EXPECT_THROW(compare(spd, negative_shift), std::invalid_argument);
  EXPECT_THROW(compare(spd, bad_tolerance), std::invalid_argument);
}

TEST(PcgCompare, RunsEveryOrderingAndSolver) {
  APIARY_REQUIRE_GPU();
  const Comparison c = compare(sparse::poisson2d<double>(30, 30), {});
  ASSERT_EQ(c.results.size(), 3u * (2 * kMethods.size() - 1));  // cusparse-ic0: host loop only
  for (const auto& r : c.results) {
    SCOPED_TRACE(std::string(to_string(r.order)) + " " + std::string(to_string(r.method)) + " " +
                 std::string(to_string(r.loop)));
    EXPECT_TRUE(r.error.empty()) << r.error;
    EXPECT_TRUE(r.ok()) << r.reason;
    EXPECT_LT(r.true_residual, 1e-7);
  }
  EXPECT_NE(c.baseline(Order::color), nullptr);
  EXPECT_NE(format_comparison(c).find("cusparse-ic0"), std::string::npos);
}

}  // namespace
}  // namespace apiary::pcg
