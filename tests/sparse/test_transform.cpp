#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <span>
#include <stdexcept>
#include <vector>

#include "sparse/convert.hpp"
#include "sparse/transform.hpp"

namespace apiary::sparse {
namespace {

using Dense = std::vector<std::vector<double>>;

Csr<double> make_csr(index_t rows, index_t cols, std::vector<index_t> row_ptr,
                     std::vector<index_t> col, std::vector<double> val) {
  Csr<double> a;
  a.rows = rows;
  a.cols = cols;
  a.row_ptr = std::move(row_ptr);
  a.col = std::move(col);
  a.val = std::move(val);
  return a;
}

Dense to_dense(const Csr<double>& a) {
  Dense d(static_cast<std::size_t>(a.rows),
          std::vector<double>(static_cast<std::size_t>(a.cols), 0.0));
  for (index_t r = 0; r < a.rows; ++r)
    for (index_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) d[r][a.col[k]] += a.val[k];
  return d;
}

bool rows_sorted(const Csr<double>& a) {
  for (index_t r = 0; r < a.rows; ++r)
    for (index_t k = a.row_ptr[r] + 1; k < a.row_ptr[r + 1]; ++k)
      if (a.col[k - 1] >= a.col[k]) return false;
  return true;
}

Csr<double> random_matrix(index_t n, double fill, std::mt19937_64& rng) {
  Coo<double> c;
  c.rows = n;
  c.cols = n;
  for (index_t i = 0; i < n; ++i)
    for (index_t j = 0; j < n; ++j)
      if (static_cast<double>(rng() % 1000) < fill * 1000)
        c.push_back(i, j, static_cast<double>(rng() % 100 + 1));
  return coo_to_csr(c);
}

// [ 1 2 0 ]
// [ 3 0 4 ]    (1,1) not stored
// [ 5 6 7 ]
Csr<double> three_by_three() {
  return make_csr(3, 3, {0, 2, 4, 7}, {0, 1, 0, 2, 0, 1, 2}, {1, 2, 3, 4, 5, 6, 7});
}

void expect_csr(const Csr<double>& a, const std::vector<index_t>& row_ptr,
                const std::vector<index_t>& col, const std::vector<double>& val) {
  EXPECT_EQ(a.row_ptr, row_ptr);
  EXPECT_EQ(a.col, col);
  EXPECT_EQ(a.val, val);
}

TEST(TransformSortRows, SortsAndSumsDuplicatesInStoredOrder) {
  // row 0: (2, 1) (0, 2) (2, 3)   row 1: empty   row 2: (1, 4) (1, 5) already sorted
  const Csr<double> a = sort_rows(make_csr(3, 3, {0, 3, 3, 5}, {2, 0, 2, 1, 1}, {1, 2, 3, 4, 5}));
  expect_csr(a, {0, 2, 2, 3}, {0, 2, 1}, {2, 4, 9});
}

TEST(TransformSortRows, LeavesASortedMatrixUnchanged) {
  const Csr<double> a = three_by_three();
  const Csr<double> b = sort_rows(a);
  expect_csr(b, a.row_ptr, a.col, a.val);
}

TEST(TransformSortRows, RejectsMalformedArrays) {
  EXPECT_THROW(sort_rows(make_csr(2, 2, {0, 1}, {0}, {1.0})),
               std::invalid_argument);  // short row_ptr
  EXPECT_THROW(sort_rows(make_csr(2, 2, {0, 2, 1}, {0}, {1.0})),
               std::invalid_argument);  // decreasing
  EXPECT_THROW(sort_rows(make_csr(1, 2, {0, 1}, {2}, {1.0})),
               std::invalid_argument);  // column out of range
  EXPECT_THROW(sort_rows(make_csr(1, 2, {0, 1}, {0}, {1.0, 2.0})),
               std::invalid_argument);  // val size
  EXPECT_THROW(sort_rows(make_csr(1, 2, {0, 2}, {0}, {1.0})),
               std::invalid_argument);  // nnz mismatch
}

TEST(TransformSymmetrize, AddsTransposePatternAsZeros) {
  // [ 1 2 0 ]        [ 1 2 0 ]
  // [ 0 3 0 ]   ->   [ 0 3 0 ]  with (1,0) and (0,2) as explicit zeros
  // [ 4 0 5 ]        [ 4 0 5 ]
  const Csr<double> a = make_csr(3, 3, {0, 2, 3, 5}, {0, 1, 1, 0, 2}, {1, 2, 3, 4, 5});
  EXPECT_FALSE(is_pattern_symmetric(a));
  EXPECT_FALSE(is_symmetric(a));
  const Csr<double> s = symmetrize_pattern(a);
  expect_csr(s, {0, 3, 5, 7}, {0, 1, 2, 0, 1, 0, 2}, {1, 2, 0, 0, 3, 4, 5});
  EXPECT_TRUE(is_pattern_symmetric(s));
  EXPECT_FALSE(is_symmetric(s));
  EXPECT_EQ(to_dense(s), to_dense(a));
}

TEST(TransformSymmetrize, SymmetricInputIsUnchangedAndNonSquareThrows) {
  const Csr<double> a = make_csr(2, 2, {0, 2, 4}, {0, 1, 0, 1}, {2, -1, -1, 2});
  EXPECT_TRUE(is_symmetric(a));
  const Csr<double> s = symmetrize_pattern(a);
  expect_csr(s, a.row_ptr, a.col, a.val);
  const Csr<double> rect = make_csr(1, 2, {0, 1}, {1}, {1.0});
  EXPECT_THROW(symmetrize_pattern(rect), std::invalid_argument);
  EXPECT_FALSE(is_pattern_symmetric(rect));
  EXPECT_FALSE(is_symmetric(rect));
}

TEST(TransformSymmetrize, SamePatternDifferentValuesIsNotSymmetric) {
  const Csr<double> a = make_csr(2, 2, {0, 1, 2}, {1, 0}, {1.0, 2.0});
  EXPECT_TRUE(is_pattern_symmetric(a));
  EXPECT_FALSE(is_symmetric(a));
}

TEST(TransformTriangle, LowerWithEachDiagonalMode) {
  const Csr<double> a = three_by_three();
  expect_csr(lower_triangle(a), {0, 1, 2, 5}, {0, 0, 0, 1, 2}, {1, 3, 5, 6, 7});
  expect_csr(lower_triangle(a, Diagonal::drop), {0, 0, 1, 3}, {0, 0, 1}, {3, 5, 6});
  expect_csr(lower_triangle(a, Diagonal::unit, 9.0), {0, 1, 3, 6}, {0, 0, 1, 0, 1, 2},
             {1, 3, 1, 5, 6, 1});
  expect_csr(lower_triangle(a, Diagonal::add_missing, 9.0), {0, 1, 3, 6}, {0, 0, 1, 0, 1, 2},
             {1, 3, 9, 5, 6, 7});
}

TEST(TransformTriangle, UpperWithEachDiagonalMode) {
  const Csr<double> a = three_by_three();
  expect_csr(upper_triangle(a), {0, 2, 3, 4}, {0, 1, 2, 2}, {1, 2, 4, 7});
  expect_csr(upper_triangle(a, Diagonal::drop), {0, 1, 2, 2}, {1, 2}, {2, 4});
  expect_csr(upper_triangle(a, Diagonal::unit), {0, 2, 4, 5}, {0, 1, 1, 2, 2}, {1, 2, 1, 4, 1});
  expect_csr(upper_triangle(a, Diagonal::add_missing, -2.0), {0, 2, 4, 5}, {0, 1, 1, 2, 2},
             {1, 2, -2, 4, 7});
}

TEST(TransformTriangle, RectangularDiagonalStopsAtTheShortSide) {
  // 3 x 2, empty: only (0,0) and (1,1) are diagonal positions.
  const Csr<double> empty = make_csr(3, 2, {0, 0, 0, 0}, {}, {});
  expect_csr(lower_triangle(empty, Diagonal::unit), {0, 1, 2, 2}, {0, 1}, {1, 1});
  expect_csr(upper_triangle(empty, Diagonal::add_missing, 5.0), {0, 1, 2, 2}, {0, 1}, {5, 5});
}

TEST(TransformTriangle, LowerPlusStrictUpperRebuildsTheMatrix) {
  std::mt19937_64 rng(7);
  for (int t = 0; t < 5; ++t) {
    const Csr<double> a = random_matrix(12, 0.3, rng);
    const Dense lo = to_dense(lower_triangle(a));
    const Dense up = to_dense(upper_triangle(a, Diagonal::drop));
    Dense sum = lo;
    for (std::size_t i = 0; i < sum.size(); ++i)
      for (std::size_t j = 0; j < sum.size(); ++j) sum[i][j] += up[i][j];
    EXPECT_EQ(sum, to_dense(a));
  }
}

TEST(TransformPermutation, ValidatesPermutations) {
  EXPECT_TRUE(is_permutation(std::vector<index_t>{}));
  EXPECT_TRUE(is_permutation(std::vector<index_t>{2, 0, 1}));
  EXPECT_FALSE(is_permutation(std::vector<index_t>{0, 0, 1}));   // duplicate
  EXPECT_FALSE(is_permutation(std::vector<index_t>{0, 3, 1}));   // out of range
  EXPECT_FALSE(is_permutation(std::vector<index_t>{0, -1, 1}));  // negative
  EXPECT_THROW(inverse_permutation(std::vector<index_t>{1, 1}), std::invalid_argument);
}

TEST(TransformPermutation, InverseAndVectorFollowTheConvention) {
  const std::vector<index_t> perm{2, 0, 3, 1};  // perm[new] = old
  EXPECT_EQ(inverse_permutation(perm), (std::vector<index_t>{1, 3, 0, 2}));
  const std::vector<double> x{10, 11, 12, 13};
  EXPECT_EQ(permute_vector<double>(x, perm), (std::vector<double>{12, 10, 13, 11}));
  const std::vector<index_t> inv = inverse_permutation(perm);
  const std::vector<double> y = permute_vector<double>(x, perm);
  EXPECT_EQ(permute_vector<double>(y, inv), x);
  EXPECT_THROW(permute_vector<double>(x, std::vector<index_t>{0, 1, 2}), std::invalid_argument);
}

TEST(TransformPermutation, PermuteRowsMovesWholeRows) {
  const Csr<double> b = permute_rows(three_by_three(), std::vector<index_t>{2, 0, 1});
  expect_csr(b, {0, 3, 5, 7}, {0, 1, 2, 0, 1, 0, 2}, {5, 6, 7, 1, 2, 3, 4});
  EXPECT_THROW(permute_rows(three_by_three(), std::vector<index_t>{0, 1}), std::invalid_argument);
}

TEST(TransformPermutation, SymmetricPermutationMatchesDenseReference) {
  std::mt19937_64 rng(42);
  for (int t = 0; t < 20; ++t) {
    const index_t n = 1 + static_cast<index_t>(rng() % 15);
    const Csr<double> a = random_matrix(n, 0.35, rng);
    std::vector<index_t> perm(static_cast<std::size_t>(n));
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), rng);
    const Csr<double> b = permute_symmetric(a, perm);
    EXPECT_TRUE(rows_sorted(b));
    EXPECT_EQ(b.nnz(), a.nnz());
    const Dense da = to_dense(a);
    const Dense db = to_dense(b);
    for (index_t i = 0; i < n; ++i)
      for (index_t j = 0; j < n; ++j) ASSERT_EQ(db[i][j], da[perm[i]][perm[j]]);
    const Csr<double> back = permute_symmetric(b, inverse_permutation(perm));
    expect_csr(back, a.row_ptr, a.col, a.val);
  }
}

TEST(TransformPermutation, SymmetricPermutationRejectsBadInput) {
  EXPECT_THROW(permute_symmetric(three_by_three(), std::vector<index_t>{0, 1}),
               std::invalid_argument);
  EXPECT_THROW(permute_symmetric(three_by_three(), std::vector<index_t>{0, 1, 1}),
               std::invalid_argument);
  EXPECT_THROW(permute_symmetric(make_csr(1, 2, {0, 0}, {}, {}), std::vector<index_t>{0}),
               std::invalid_argument);
}

TEST(TransformFloat, FloatInstantiationsWork) {
  Csr<float> a;
  a.rows = 2;
  a.cols = 2;
  a.row_ptr = {0, 2, 3};
  a.col = {1, 0, 1};
  a.val = {2.0f, 1.0f, 3.0f};
  const Csr<float> s = sort_rows(a);
  EXPECT_EQ(s.col, (std::vector<index_t>{0, 1, 1}));
  EXPECT_TRUE(is_pattern_symmetric(symmetrize_pattern(s)));
  EXPECT_EQ(lower_triangle(s, Diagonal::drop).nnz(), 0U);
}

}  // namespace

TEST(DominantDiagonal, SetsStoredDiagonalsOnly) {
  // [2 -1 0; 4 . 3; 0 -5 7]: row 1 has no stored diagonal and is left alone.
  const Csr<double> a = make_csr(3, 3, {0, 2, 4, 6}, {0, 1, 0, 2, 1, 2}, {2, -1, 4, 3, -5, 7});
  const Csr<double> d = apiary::sparse::dominant_diagonal(a);
  EXPECT_EQ(d.row_ptr, a.row_ptr);
  EXPECT_EQ(d.col, a.col);
  EXPECT_EQ(d.val, (std::vector<double>{2.0, -1.0, 4.0, 3.0, -5.0, 6.0}));
}

}  // namespace apiary::sparse
