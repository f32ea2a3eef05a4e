#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "sparse/analysis.hpp"
#include "sparse/convert.hpp"
#include "sparse/generators.hpp"
#include "tests/sparse/test_util.hpp"

namespace apiary::sparse {
namespace {

using testing::from_dense;

// Pattern with a unit diagonal plus one entry (i, j) per listed pair.
Csr<double> from_entries(index_t n, const std::vector<std::pair<index_t, index_t>>& entries) {
  Coo<double> c;
  c.rows = n;
  c.cols = n;
  for (index_t i = 0; i < n; ++i) c.push_back(i, i, 1.0);
  for (auto [i, j] : entries) c.push_back(i, j, 1.0);
  return coo_to_csr(c);
}

TEST(AnalysisTriangular, RecognisesEachTriangle) {
  const auto lower = from_dense(3, 3, {1, 0, 0, 2, 3, 0, 4, 0, 5});
  EXPECT_TRUE(is_triangular(lower, Triangle::lower));
  EXPECT_FALSE(is_triangular(lower, Triangle::upper));
  EXPECT_TRUE(is_triangular(transpose(lower), Triangle::upper));
  const auto diag = from_dense(2, 2, {1, 0, 0, 2});
  EXPECT_TRUE(is_triangular(diag, Triangle::lower));
  EXPECT_TRUE(is_triangular(diag, Triangle::upper));
  EXPECT_TRUE(is_triangular(Csr<double>{}, Triangle::lower));
}

TEST(AnalysisTriangular, MissingDiagonals) {
  EXPECT_EQ(missing_diagonals(from_dense(3, 3, {1, 0, 0, 2, 0, 0, 4, 0, 5})),
            (std::vector<index_t>{1}));
  // Rectangular: only rows below min(rows, cols) have a diagonal.
  EXPECT_EQ(missing_diagonals(from_dense(3, 2, {0, 1, 0, 1, 1, 1})), (std::vector<index_t>{0}));
  // A stored zero is present, not missing.
  Csr<double> z = from_dense(2, 2, {1, 0, 0, 1});
  z.val[1] = 0;
  EXPECT_TRUE(missing_diagonals(z).empty());
}

TEST(AnalysisLevelSets, ChainIsOneRowPerLevel) {
  const auto a = from_entries(5, {{1, 0}, {2, 1}, {3, 2}, {4, 3}});
  const LevelSets s = level_sets(a, Triangle::lower);
  EXPECT_EQ(s.count, 5);
  EXPECT_EQ(s.level, (std::vector<index_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(s.size, (std::vector<index_t>(5, 1)));
  EXPECT_EQ(s.order, (std::vector<index_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(s.level_ptr, (std::vector<index_t>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(s.max_width(), 1);
}

TEST(AnalysisLevelSets, Diamond) {
  // 0 -> {1, 2} -> 3, plus an independent row 4.
  const auto a = from_entries(5, {{1, 0}, {2, 0}, {3, 1}, {3, 2}});
  const LevelSets s = level_sets(a, Triangle::lower);
  EXPECT_EQ(s.count, 3);
  EXPECT_EQ(s.level, (std::vector<index_t>{0, 1, 1, 2, 0}));
  EXPECT_EQ(s.size, (std::vector<index_t>{2, 2, 1}));
  EXPECT_EQ(s.order, (std::vector<index_t>{0, 4, 1, 2, 3}));
  EXPECT_EQ(s.level_ptr, (std::vector<index_t>{0, 2, 4, 5}));
  EXPECT_EQ(s.max_width(), 2);
}

TEST(AnalysisLevelSets, DiagonalMatrixIsOneLevel) {
  const LevelSets s = level_sets(from_entries(4, {}), Triangle::lower);
  EXPECT_EQ(s.count, 1);
  EXPECT_EQ(s.level, (std::vector<index_t>(4, 0)));
  EXPECT_EQ(s.order, (std::vector<index_t>{0, 1, 2, 3}));
  EXPECT_EQ(s.max_width(), 4);
}

TEST(AnalysisLevelSets, UpperDependsOnLargerRows) {
  // Symmetric tridiagonal: the upper DAG is the lower chain run backwards.
  const auto a = from_entries(4, {{0, 1}, {1, 0}, {1, 2}, {2, 1}, {2, 3}, {3, 2}});
  const LevelSets up = level_sets(a, Triangle::upper);
  EXPECT_EQ(up.count, 4);
  EXPECT_EQ(up.level, (std::vector<index_t>{3, 2, 1, 0}));
  EXPECT_EQ(up.order, (std::vector<index_t>{3, 2, 1, 0}));
  // Rows 0 and 1 both depend only on row 2 here.
  const LevelSets fork = level_sets(from_entries(3, {{0, 2}, {1, 2}}), Triangle::upper);
  EXPECT_EQ(fork.level, (std::vector<index_t>{1, 1, 0}));
  EXPECT_EQ(fork.order, (std::vector<index_t>{2, 0, 1}));
}

TEST(AnalysisLevelSets, OtherTriangleIgnored) {
  const auto full = from_entries(4, {{1, 0}, {0, 3}, {3, 1}, {2, 3}, {3, 2}});
  const auto lower = from_entries(4, {{1, 0}, {3, 1}, {3, 2}});
  const LevelSets a = level_sets(full, Triangle::lower);
  const LevelSets b = level_sets(lower, Triangle::lower);
  EXPECT_EQ(a.level, b.level);
  EXPECT_EQ(a.order, b.order);
  EXPECT_EQ(a.count, 3);
}

TEST(AnalysisLevelSets, EmptyAndNonSquare) {
  const LevelSets s = level_sets(Csr<double>{}, Triangle::lower);
  EXPECT_EQ(s.count, 0);
  EXPECT_EQ(s.level_ptr, (std::vector<index_t>{0}));
  EXPECT_EQ(s.max_width(), 0);
  EXPECT_THROW(level_sets(from_dense(2, 3, {1, 0, 0, 0, 1, 0}), Triangle::lower),
               std::invalid_argument);
}

TEST(AnalysisComponents, SeveralWithIsolatedVertices) {
  // {0, 3, 5}, {1, 4}, {2}, {6}; 5 -> 3 is stored in one direction only.
  const auto a = from_entries(7, {{0, 3}, {3, 0}, {5, 3}, {1, 4}, {4, 1}});
  const Components c = weakly_connected_components(a);
  EXPECT_EQ(c.count, 4);
  EXPECT_EQ(c.label, (std::vector<index_t>{0, 1, 2, 0, 1, 0, 3}));
  EXPECT_EQ(c.size, (std::vector<index_t>{3, 2, 1, 1}));
}

TEST(AnalysisComponents, DirectedEdgeJoinsOnce) {
  // Only a_20 is stored; vertex 2 joins 0 and the component has two vertices, not three.
  Coo<double> c;
  c.rows = c.cols = 4;
  c.push_back(2, 0, 1.0);
  c.push_back(3, 1, 1.0);
  c.push_back(1, 3, 1.0);
  const Components comp = weakly_connected_components(coo_to_csr(c));
  EXPECT_EQ(comp.count, 2);
  EXPECT_EQ(comp.label, (std::vector<index_t>{0, 1, 0, 1}));
  EXPECT_EQ(comp.size, (std::vector<index_t>{2, 2}));
}

TEST(AnalysisComponents, LabelsFollowSmallestVertex) {
  // The component of 4 and 1 is found through row 4 first, yet is numbered by vertex 1.
  const auto a = from_entries(5, {{4, 1}, {3, 0}, {2, 4}});
  const Components c = weakly_connected_components(a);
  EXPECT_EQ(c.label, (std::vector<index_t>{0, 1, 1, 0, 1}));
  EXPECT_EQ(weakly_connected_components(Csr<double>{}).count, 0);
}

// Several threads unite ranges of rows into one forest at once: the components must be
// those of one thread, on graphs with many small components (isolated vertices, short
// chains), a few large ones, and one that spans every range.
TEST(AnalysisComponents, SeveralThreadsGiveTheSameComponents) {
  const std::vector<Csr<double>> graphs{random_diagonally_dominant<double>(300000, 1, 2, 7),
                                        block_diagonal_lower<double>(40, 6000, 0.01, 3),
                                        random_diagonally_dominant<double>(100000, 3, 5, 11)};
  const std::vector<index_t> at_least{1000, 40, 1};  // components of each
  for (std::size_t g = 0; g < graphs.size(); ++g) {
    const Csr<double>& a = graphs[g];
    ASSERT_GE(a.nnz(), std::size_t{1} << 18) << "too few entries for several ranges";
    const Components one = weakly_connected_components(a);
    EXPECT_GE(one.count, at_least[g]);
    for (unsigned threads : {2u, 3u, 8u}) {
      const Components several = weakly_connected_components(a, threads);
      EXPECT_EQ(several.count, one.count) << threads << " threads";
      EXPECT_EQ(several.label, one.label) << threads << " threads";
      EXPECT_EQ(several.size, one.size) << threads << " threads";
    }
  }
}

TEST(AnalysisBandwidth, ExactValues) {
  // x . . . .
  // x x . . .
  // . . x . x
  // x . . x .
  // . . x . x
  const auto a =
      from_dense(5, 5, {1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 0, 1});
  EXPECT_EQ(bandwidth(a), 3);
  EXPECT_EQ(profile(a), 1 + 0 + 3 + 2);

  const auto tri = from_entries(
      6, {{1, 0}, {0, 1}, {2, 1}, {1, 2}, {3, 2}, {2, 3}, {4, 3}, {3, 4}, {5, 4}, {4, 5}});
  EXPECT_EQ(bandwidth(tri), 1);
  EXPECT_EQ(profile(tri), 5);
  EXPECT_EQ(bandwidth(from_entries(4, {})), 0);
  EXPECT_EQ(profile(from_entries(4, {})), 0);
  EXPECT_EQ(bandwidth(Csr<double>{}), 0);
  // Only the lower side counts towards the profile; the upper side still sets the bandwidth.
  EXPECT_EQ(bandwidth(from_entries(4, {{0, 3}})), 3);
  EXPECT_EQ(profile(from_entries(4, {{0, 3}})), 0);
  EXPECT_EQ(profile(from_entries(4, {{3, 0}})), 3);
}

TEST(AnalysisDegree, Stats) {
  const auto a = from_dense(4, 4, {1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 0, 1});
  const DegreeStats s = degree_stats(a);
  EXPECT_EQ(s.min, 0);
  EXPECT_EQ(s.max, 3);
  EXPECT_DOUBLE_EQ(s.mean, 1.5);
  EXPECT_EQ(s.empty_rows, 1);
  const DegreeStats e = degree_stats(Csr<double>{});
  EXPECT_EQ(e.max, 0);
  EXPECT_EQ(e.mean, 0);
}

TEST(AnalysisDominance, DiagonallyDominant) {
  EXPECT_TRUE(is_diagonally_dominant(from_dense(2, 2, {2, -1, -1, 2})));
  EXPECT_TRUE(is_diagonally_dominant(from_dense(2, 2, {-2, 2, 1, 1})));  // equality allowed
  EXPECT_FALSE(is_diagonally_dominant(from_dense(2, 2, {1, 2, 0, 5})));
  EXPECT_FALSE(is_diagonally_dominant(from_dense(2, 2, {0, 1, 0, 1})));  // missing a_00
  EXPECT_TRUE(is_diagonally_dominant(Csr<float>{}));
  EXPECT_THROW(is_diagonally_dominant(from_dense(1, 2, {1, 0})), std::invalid_argument);
}

}  // namespace
}  // namespace apiary::sparse
