#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "sparse/convert.hpp"
#include "sparse/reference.hpp"
#include "tests/sparse/test_util.hpp"

namespace apiary::sparse {
namespace {

using testing::from_dense;

// Random square matrix with about `per_row` off-diagonal entries per row in (-1, 1) and
// a diagonal of magnitude (row sum + 1), so both triangles are well conditioned.
template <class T = double>
Csr<T> random_dominant(index_t n, int per_row, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<index_t> pick(0, n - 1);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  Coo<double> c;
  c.rows = c.cols = n;
  std::vector<double> row_sum(static_cast<std::size_t>(n), 0.0);
  for (index_t i = 0; i < n; ++i)
    for (int k = 0; k < per_row; ++k) {
      const index_t j = pick(rng);
      if (j == i) continue;
      const double v = value(rng);
      c.push_back(i, j, v);
      row_sum[i] += std::abs(v);
    }
  for (index_t i = 0; i < n; ++i) c.push_back(i, i, (i % 2 ? -1.0 : 1.0) * (row_sum[i] + 1.0));
  const Csr<double> d = coo_to_csr(c);
  Csr<T> out;
  out.rows = d.rows;
  out.cols = d.cols;
  out.row_ptr = d.row_ptr;
  out.col = d.col;
  out.val.assign(d.val.begin(), d.val.end());
  return out;
}

// The triangle that triangular_solve is meant to use, as its own matrix; with `unit` the
// diagonal is replaced by ones.
template <class T>
Csr<T> triangle_of(const Csr<T>& a, Triangle t, bool unit) {
  Coo<T> c;
  c.rows = a.rows;
  c.cols = a.cols;
  for (index_t i = 0; i < a.rows; ++i) {
    for (index_t k = a.row_begin(i); k < a.row_end(i); ++k) {
      const index_t j = a.col[k];
      if (t == Triangle::lower ? j < i : j > i) c.push_back(i, j, a.val[k]);
      if (j == i && !unit) c.push_back(i, j, a.val[k]);
    }
    if (unit) c.push_back(i, i, T(1));
  }
  return coo_to_csr(c);
}

using V = std::vector<double>;

std::vector<double> random_vector(index_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::vector<double> v(static_cast<std::size_t>(n));
  for (double& x : v) x = value(rng);
  return v;
}

TEST(ReferenceSpmv, SmallExact) {
  const auto a = from_dense(2, 3, {1, 0, 2, 0, -3, 4});
  EXPECT_EQ(spmv(a, V{1, 2, 3}), (V{7, 6}));
  EXPECT_THROW(spmv(a, V{1, 2}), std::invalid_argument);
  const std::vector<double> zero{0, 0};
  // b = 0: the residual is absolute.
  EXPECT_DOUBLE_EQ(relative_residual(a, V{1, 2, 3}, zero), std::sqrt(85.0));
  EXPECT_DOUBLE_EQ(relative_residual(a, V{1, 2, 3}, V{7, 6}), 0.0);
  EXPECT_DOUBLE_EQ(relative_residual(a, V{0, 0, 0}, V{3, 4}), 1.0);
}

TEST(ReferenceTriangularSolve, LowerAndUpperOnRandomMatrices) {
  for (std::uint32_t seed : {1u, 2u, 3u}) {
    const auto a = random_dominant(300, 6, seed);
    const auto b = random_vector(300, seed + 100);
    for (Triangle t : {Triangle::lower, Triangle::upper}) {
      const std::vector<double> x = triangular_solve(a, b, {.triangle = t});
      // The other triangle of the full matrix is ignored: the residual is that of T alone.
      EXPECT_LT(relative_residual(triangle_of(a, t, false), x, b), 1e-12);
      EXPECT_GT(relative_residual(a, x, b), 1e-3);
    }
  }
}

TEST(ReferenceTriangularSolve, UnitDiagonalIgnoresStoredDiagonal) {
  auto a = random_dominant(200, 4, 7);
  // Zero some stored diagonals: with unit_diagonal they must not matter.
  for (index_t i = 0; i < a.rows; i += 3)
    for (index_t k = a.row_begin(i); k < a.row_end(i); ++k)
      if (a.col[k] == i) a.val[k] = 0;
  // Scale the off-diagonal entries down so that the unit triangle is well conditioned.
  for (index_t i = 0; i < a.rows; ++i)
    for (index_t k = a.row_begin(i); k < a.row_end(i); ++k)
      if (a.col[k] != i) a.val[k] *= 0.1;
  const auto b = random_vector(200, 8);
  for (Triangle t : {Triangle::lower, Triangle::upper}) {
    const auto x = triangular_solve(a, b, {.triangle = t, .unit_diagonal = true});
    EXPECT_LT(relative_residual(triangle_of(a, t, true), x, b), 1e-12);
  }
  // Missing diagonals are fine too.
  const auto strict = from_dense(2, 2, {0, 0, 2, 0});
  EXPECT_EQ(triangular_solve(strict, V{1, 1}, {.unit_diagonal = true}), (V{1, -1}));
}

TEST(ReferenceTriangularSolve, FloatAccumulatesInDouble) {
  const auto a = random_dominant<float>(300, 6, 11);
  std::vector<float> b(300);
  const auto bd = random_vector(300, 12);
  b.assign(bd.begin(), bd.end());
  const auto x = triangular_solve(a, b);
  EXPECT_LT(relative_residual(triangle_of(a, Triangle::lower, false), x, b), 1e-5);
}

TEST(ReferenceTriangularSolve, SingularDiagonalNamesTheRow) {
  // Lower, stored zero on row 1.
  const auto zero = from_dense(3, 3, {1, 0, 0, 1, 1, 0, 1, 1, 1});
  auto z = zero;
  for (index_t k = z.row_begin(1); k < z.row_end(1); ++k)
    if (z.col[k] == 1) z.val[k] = 0;
  try {
    triangular_solve(z, V{1, 1, 1});
    FAIL() << "expected SingularError";
  } catch (const SingularError& e) {
    EXPECT_EQ(e.row(), 1);
    EXPECT_FALSE(e.missing());
    EXPECT_EQ(std::string(e.what()), "zero diagonal at row 1 (0-based)");
  }
  // Missing diagonal on row 2.
  const auto missing = from_dense(3, 3, {1, 0, 0, 1, 1, 0, 1, 1, 0});
  try {
    triangular_solve(missing, V{1, 1, 1});
    FAIL() << "expected SingularError";
  } catch (const SingularError& e) {
    EXPECT_EQ(e.row(), 2);
    EXPECT_TRUE(e.missing());
    EXPECT_EQ(std::string(e.what()), "missing diagonal at row 2 (0-based)");
  }
  // Backward substitution meets row 2 first although row 0 is singular as well.
  const auto upper = from_dense(3, 3, {0, 1, 1, 0, 1, 1, 0, 0, 0});
  try {
    triangular_solve(upper, V{1, 1, 1}, {.triangle = Triangle::upper});
    FAIL() << "expected SingularError";
  } catch (const SingularError& e) {
    EXPECT_EQ(e.row(), 2);
  }
  EXPECT_THROW(triangular_solve(zero, V{1, 1}), std::invalid_argument);
}

TEST(ReferenceJacobi, ConvergesToTheDirectSolution) {
  const auto a = random_dominant(100, 5, 21);
  const auto x_true = random_vector(100, 22);
  const auto b = spmv(a, x_true);
  const JacobiResult<double> r = jacobi(a, b, {.tolerance = 1e-13});
  EXPECT_TRUE(r.converged);
  EXPECT_LT(r.last_change, 1e-13);
  EXPECT_GT(r.iterations, 1);
  EXPECT_TRUE(r.history.empty());
  for (std::size_t i = 0; i < x_true.size(); ++i) EXPECT_NEAR(r.x[i], x_true[i], 1e-12);
}

TEST(ReferenceJacobi, HandComputedTwoByTwo) {
  // A = [2 1; 1 2], b = (1, 1), x0 = (1, 1): both components follow
  // 0, 1/2, 1/4, 3/8, 5/16, 11/32 and the L1 changes are 2, 1, 1/2, 1/4, 1/8, 1/16,
  // so with tolerance 0.1 the sixth update is the first below it.
  const auto a = from_dense(2, 2, {2, 1, 1, 2});
  const JacobiResult<double> r = jacobi(a, V{1, 1}, {.tolerance = 0.1, .keep_history = true});
  EXPECT_TRUE(r.converged);
  EXPECT_EQ(r.iterations, 6);
  EXPECT_EQ(r.last_change, 1.0 / 16);
  ASSERT_EQ(r.history.size(), 6u);
  const double expect[] = {0, 0.5, 0.25, 0.375, 0.3125, 0.34375};
  for (int k = 0; k < 6; ++k) EXPECT_EQ(r.history[k], (std::vector<double>(2, expect[k])));
  EXPECT_EQ(r.x, r.history.back());
}

TEST(ReferenceJacobi, NonConvergenceIsReported) {
  const auto a = from_dense(2, 2, {1, 2, 2, 1});  // iteration matrix has spectral radius 2
  const JacobiResult<float> r = jacobi(from_dense<float>(2, 2, {1, 2, 2, 1}),
                                       std::vector<float>{1, 1}, {.max_iterations = 5});
  EXPECT_FALSE(r.converged);
  EXPECT_EQ(r.iterations, 5);
  EXPECT_GT(r.last_change, 1.0);
  const JacobiResult<double> none = jacobi(a, V{1, 1}, {.max_iterations = 0});
  EXPECT_FALSE(none.converged);
  EXPECT_EQ(none.iterations, 0);
  EXPECT_EQ(none.x, (V{1, 1}));
}

TEST(ReferenceJacobi, SingularDiagonal) {
  try {
    jacobi(from_dense(3, 3, {1, 0, 0, 0, 2, 0, 1, 0, 0}), V{1, 1, 1});
    FAIL() << "expected SingularError";
  } catch (const SingularError& e) {
    EXPECT_EQ(e.row(), 2);
    EXPECT_TRUE(e.missing());
  }
}

}  // namespace
}  // namespace apiary::sparse
