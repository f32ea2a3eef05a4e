// Host parts of PCG: the IC(0) oracle and its breakdown error, the orderings (colouring
// validity), and the host PCG reference on generated and shared SPD matrices.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "sparse/convert.hpp"
#include "sparse/reference.hpp"
#include "tasks/pcg/ordering.hpp"
#include "tasks/pcg/pcg_reference.hpp"
#include "tests/tasks/pcg/pcg_cases.hpp"

namespace apiary::pcg {
namespace {

using testing::generated_cases;

Csr<double> dense_to_csr(index_t n, const std::vector<double>& d) {
  Csr<double> a;
  a.rows = a.cols = n;
  for (index_t i = 0; i < n; ++i) {
    for (index_t j = 0; j < n; ++j)
      if (d[static_cast<std::size_t>(i * n + j)] != 0) {
        a.col.push_back(j);
        a.val.push_back(d[static_cast<std::size_t>(i * n + j)]);
      }
    a.row_ptr.push_back(static_cast<index_t>(a.col.size()));
  }
  return a;
}

// (L L^T)(i, j) for the stored lower pattern.
double llt(const Csr<double>& l, index_t i, index_t j) {
  double s = 0;
  for (index_t p = l.row_begin(i); p < l.row_end(i); ++p)
    for (index_t q = l.row_begin(j); q < l.row_end(j); ++q)
      if (l.col[p] == l.col[q]) s += l.val[p] * l.val[q];
  return s;
}

void expect_matches_on_pattern(const Csr<double>& a, const Csr<double>& l, double shift = 0) {
  for (index_t i = 0; i < a.rows; ++i)
    for (index_t k = a.row_begin(i); k < a.row_end(i); ++k) {
      const index_t j = a.col[k];
      if (j > i) continue;
      const double want = j == i ? a.val[k] * (1 + shift) : a.val[k];
      EXPECT_NEAR(llt(l, i, j), want, 1e-12 * std::max(1.0, std::abs(want))) << "row " << i << " col " << j;
    }
}

TEST(Ic0, TridiagonalIsExactCholesky) {
  // No fill for a tridiagonal matrix: IC(0) is the Cholesky factor.
  const index_t n = 6;
  std::vector<double> d(n * n, 0.0);
  for (index_t i = 0; i < n; ++i) {
    d[i * n + i] = 4;
    if (i > 0) d[i * n + i - 1] = d[(i - 1) * n + i] = -1;
  }
  const Csr<double> a = dense_to_csr(n, d);
  const Csr<double> l = ic0_reference(a);
  EXPECT_EQ(l.nnz(), 2u * n - 1);
  EXPECT_DOUBLE_EQ(l.val[0], 2.0);
  for (index_t i = 0; i < n; ++i) EXPECT_EQ(l.col[l.row_end(i) - 1], i) << "diagonal stored last";
  for (index_t i = 0; i < n; ++i)
    for (index_t j = 0; j < n; ++j) EXPECT_NEAR(llt(l, std::max(i, j), std::min(i, j)), d[i * n + j], 1e-14);
}

TEST(Ic0, MatchesOnPatternOfGeneratedMatrices) {
  for (const auto& c : generated_cases()) {
    SCOPED_TRACE(c.name);
    const Csr<double> l = ic0_reference(c.a);
    EXPECT_EQ(l.nnz(), sparse::lower_triangle(c.a).nnz());
    expect_matches_on_pattern(c.a, l);
  }
}

TEST(Ic0, ShiftScalesTheDiagonal) {
  const Csr<double> a = sparse::poisson2d<double>(5, 4);
  expect_matches_on_pattern(a, ic0_reference(a, 0.5), 0.5);
}

TEST(Ic0, BreakdownNamesRowAndSuggestsShift) {
  const Csr<double> a = dense_to_csr(3, {2, 0, 0, 0, 1, 2, 0, 2, 1});  // indefinite block at rows 1, 2
  try {
    ic0_reference(a);
    FAIL() << "expected Ic0Breakdown";
  } catch (const Ic0Breakdown& e) {
    EXPECT_EQ(e.row(), 2);
    EXPECT_DOUBLE_EQ(e.pivot(), -3.0);
    const std::string what = e.what();
    EXPECT_NE(what.find("row 2"), std::string::npos) << what;
    EXPECT_NE(what.find("--shift"), std::string::npos) << what;
    const std::string mapped = with_original_row(e, 7, "rcm");
    EXPECT_NE(mapped.find("row 2 of the rcm-ordered matrix (row 7 of the input"), std::string::npos) << mapped;
    EXPECT_NE(mapped.find("--shift"), std::string::npos) << mapped;
  }
  // A shift of 2 makes the diagonal 3: 3 - 4/3 > 0.
  EXPECT_NO_THROW(ic0_reference(a, 2.0));
  EXPECT_THROW(ic0_reference(a, -1.0), std::invalid_argument);
}

TEST(Ic0, MissingDiagonalBreaksDown) {
  EXPECT_THROW(ic0_reference(dense_to_csr(2, {1, 0, 0, 0})), Ic0Breakdown);  // row 1 stores nothing
  Csr<double> wide;
  wide.rows = 2;
  wide.cols = 3;
  wide.row_ptr = {0, 0, 0};
  EXPECT_THROW(ic0_reference(wide), std::invalid_argument);
}

// Rows of one colour are mutually non-adjacent, classes ordered, rows by index within.
void expect_valid_coloring(const Csr<double>& a) {
  const Coloring c = greedy_coloring(a);
  ASSERT_TRUE(sparse::is_permutation(c.perm));
  ASSERT_EQ(c.class_ptr.size(), static_cast<std::size_t>(c.colors) + 1);
  for (index_t i = 0; i < a.rows; ++i)
    for (index_t k = a.row_begin(i); k < a.row_end(i); ++k)
      if (a.col[k] != i) {
        EXPECT_NE(c.color[i], c.color[a.col[k]]) << "rows " << i << ", " << a.col[k];
      }
  for (index_t col = 0; col < c.colors; ++col) {
    EXPECT_LT(c.class_ptr[col], c.class_ptr[col + 1]) << "empty colour " << col;
    for (index_t p = c.class_ptr[col]; p < c.class_ptr[col + 1]; ++p) {
      EXPECT_EQ(c.color[c.perm[p]], col);
      if (p > c.class_ptr[col]) {
        EXPECT_LT(c.perm[p - 1], c.perm[p]);
      }
    }
  }
  // In the permuted lower triangle a row of colour k depends only on rows of colours < k:
  // each colour is one parallel step of the triangular solve.
  const Csr<double> l = sparse::lower_triangle(sparse::permute_symmetric(a, std::span<const index_t>(c.perm)));
  for (index_t col = 0; col < c.colors; ++col)
    for (index_t i = c.class_ptr[col]; i < c.class_ptr[col + 1]; ++i)
      for (index_t k = l.row_begin(i); k < l.row_end(i); ++k)
        if (l.col[k] != i) {
          EXPECT_LT(l.col[k], c.class_ptr[col]) << "row " << i;
        }
}

TEST(Ordering, GreedyColoringIsValid) {
  for (const auto& c : generated_cases()) {
    SCOPED_TRACE(c.name);
    expect_valid_coloring(c.a);
  }
  for (const auto& c : testing::shared_spd_cases()) {
    SCOPED_TRACE(c.name);
    expect_valid_coloring(c.a);
  }
}

TEST(Ordering, PoissonIsRedBlack) {
  EXPECT_EQ(greedy_coloring(sparse::poisson2d<double>(9, 7)).colors, 2);
  EXPECT_EQ(greedy_coloring(sparse::poisson3d<double>(5, 4, 3)).colors, 2);
}

TEST(Ordering, EveryOrderingIsAPermutation) {
  for (const auto& c : generated_cases())
    for (Order o : kOrders) {
      SCOPED_TRACE(c.name + " " + std::string(to_string(o)));
      const Ordering ord = make_ordering(c.a, o);
      EXPECT_EQ(ord.order, o);
      EXPECT_EQ(ord.perm.size(), static_cast<std::size_t>(c.a.rows));
      EXPECT_TRUE(sparse::is_permutation(ord.perm));
      EXPECT_EQ(ord.colors > 0, o == Order::color);
    }
}

TEST(Ordering, NamesRoundTrip) {
  for (Order o : kOrders) EXPECT_EQ(parse_order(to_string(o)), o);
  EXPECT_EQ(parse_order("colour"), Order::color);
  EXPECT_FALSE(parse_order("amd"));
}

struct Solved {
  PcgResult result;
  double true_residual;
};

Solved solve_ordered(const Csr<double>& a, Order o, HostPreconditioner m, const PcgOptions& opt, double shift = 0) {
  const Ordering ord = make_ordering(a, o);
  const Csr<double> pa = sparse::permute_symmetric(a, std::span<const index_t>(ord.perm));
  std::vector<double> b(static_cast<std::size_t>(a.rows));
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = std::sin(0.001 * static_cast<double>(i)) + 1.5;
  const std::vector<double> pb = sparse::permute_vector(std::span<const double>(b), std::span<const index_t>(ord.perm));
  Csr<double> l;
  if (m == HostPreconditioner::ic0) l = ic0_reference(pa, shift);
  PcgResult r = pcg_reference(pa, pb, m, &l, opt);
  return {r, sparse::relative_residual(pa, std::span<const double>(r.x), std::span<const double>(pb))};
}

TEST(PcgReference, ConvergesOnGeneratedMatricesForEveryOrderingAndPreconditioner) {
  const PcgOptions opt{.tolerance = 1e-8};
  for (const auto& c : generated_cases()) {
    std::array<int, 3> ic0_iterations{};
    for (Order o : kOrders)
      for (HostPreconditioner m : {HostPreconditioner::none, HostPreconditioner::jacobi, HostPreconditioner::ic0}) {
        SCOPED_TRACE(c.name + " " + std::string(to_string(o)) + " precond " + std::to_string(static_cast<int>(m)));
        const Solved s = solve_ordered(c.a, o, m, opt);
        EXPECT_TRUE(s.result.converged()) << s.result.reason;
        EXPECT_LT(s.result.residual, opt.tolerance);
        EXPECT_LT(s.true_residual, 10 * opt.tolerance);
        EXPECT_EQ(s.result.history.size(), static_cast<std::size_t>(s.result.iterations));
        if (m == HostPreconditioner::ic0) ic0_iterations[static_cast<int>(o)] = s.result.iterations;
      }
    // IC(0) in the colour ordering is the weaker preconditioner.
    EXPECT_GE(ic0_iterations[2], ic0_iterations[0]) << c.name;
  }
}

TEST(PcgReference, Ic0NeedsFewerIterationsThanCg) {
  const Csr<double> a = sparse::poisson2d<double>(40, 40);
  const PcgOptions opt{};
  EXPECT_LT(solve_ordered(a, Order::natural, HostPreconditioner::ic0, opt).result.iterations,
            solve_ordered(a, Order::natural, HostPreconditioner::none, opt).result.iterations / 2);
}

// With a constant power-of-two diagonal, Jacobi only scales r, z, p, q by powers of two:
// the same arithmetic as CG, so the same iterates bit for bit.
TEST(PcgReference, JacobiWithConstantPowerOfTwoDiagonalIsCg) {
  const Csr<double> a = sparse::poisson2d<double>(30, 20);  // diagonal 4
  const Solved cg = solve_ordered(a, Order::natural, HostPreconditioner::none, {});
  const Solved jac = solve_ordered(a, Order::natural, HostPreconditioner::jacobi, {});
  EXPECT_EQ(cg.result.iterations, jac.result.iterations);
  EXPECT_EQ(cg.result.x, jac.result.x);
}

TEST(PcgReference, ReportsNonConvergence) {
  const Csr<double> a = sparse::poisson2d<double>(20, 20);
  const Solved s = solve_ordered(a, Order::natural, HostPreconditioner::ic0, {.tolerance = 1e-8, .max_iterations = 3});
  EXPECT_EQ(s.result.stop, Stop::max_iterations);
  EXPECT_EQ(s.result.iterations, 3);
  EXPECT_GT(s.result.residual, 1e-8);
  EXPECT_NE(s.result.reason.find("not converged after 3 iterations"), std::string::npos) << s.result.reason;
}

TEST(PcgReference, ReportsBreakdownOnIndefiniteMatrix) {
  const Csr<double> a = dense_to_csr(2, {1, 0, 0, -1});
  const std::vector<double> b{1, 1};
  const PcgResult r = pcg_reference(a, b, HostPreconditioner::none, nullptr, {});
  EXPECT_EQ(r.stop, Stop::breakdown);
  EXPECT_NE(r.reason.find("p.Ap"), std::string::npos) << r.reason;
  EXPECT_THROW(pcg_reference(a, b, HostPreconditioner::jacobi, nullptr, {}), std::invalid_argument);
}

TEST(PcgReference, ZeroRightHandSideAndBadOptions) {
  const Csr<double> a = sparse::poisson2d<double>(4, 4);
  const std::vector<double> zero(16, 0.0);
  const PcgResult r = pcg_reference(a, zero, HostPreconditioner::none, nullptr, {});
  EXPECT_TRUE(r.converged());
  EXPECT_EQ(r.iterations, 0);
  EXPECT_THROW(pcg_reference(a, zero, HostPreconditioner::none, nullptr, {.tolerance = 0}), std::invalid_argument);
  EXPECT_THROW(pcg_reference(a, zero, HostPreconditioner::none, nullptr, {.max_iterations = -1}), std::invalid_argument);
  EXPECT_THROW(pcg_reference(a, std::vector<double>(3), HostPreconditioner::none, nullptr, {}), std::invalid_argument);
  EXPECT_THROW(pcg_reference(a, zero, HostPreconditioner::ic0, nullptr, {}), std::invalid_argument);
}

// The shared SPD matrices: IC(0)-PCG converges in every ordering (with the smallest
// shift that lets IC(0) through), to a true residual below 10 tol.
TEST(PcgReference, ConvergesOnSharedSpdMatrices) {
  const auto cases = testing::shared_spd_cases();
  if (cases.empty()) GTEST_SKIP() << "no SPD matrices in " << APIARY_SHARED_MATRICES;
  for (const auto& c : cases)
    for (Order o : kOrders) {
      SCOPED_TRACE(c.name + " " + std::string(to_string(o)));
      const Ordering ord = make_ordering(c.a, o);
      const Csr<double> pa = sparse::permute_symmetric(c.a, std::span<const index_t>(ord.perm));
      const auto [shift, l] = testing::factor_with_smallest_shift(pa);
      ASSERT_GE(shift, 0) << "IC(0) breaks down even with shift 1";
      std::vector<double> b(static_cast<std::size_t>(pa.rows), 1.0);
      const PcgResult r = pcg_reference(pa, b, HostPreconditioner::ic0, &l, {.tolerance = 1e-8, .max_iterations = 10 * pa.rows});
      EXPECT_TRUE(r.converged()) << r.reason;
      EXPECT_LT(sparse::relative_residual(pa, std::span<const double>(r.x), std::span<const double>(b)), 1e-7);
      std::printf("  %-10s %-8s shift %-6g iterations %d\n", c.name.c_str(), std::string(to_string(o)).c_str(), shift,
                  r.iterations);
    }
}

}  // namespace
}  // namespace apiary::pcg
