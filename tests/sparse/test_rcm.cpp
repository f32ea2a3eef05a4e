#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <numeric>
#include <random>
#include <utility>
#include <vector>

#include "sparse/analysis.hpp"
#include "sparse/convert.hpp"
#include "sparse/rcm.hpp"

namespace apiary::sparse {
namespace {

using Edges = std::vector<std::pair<index_t, index_t>>;

// Symmetric pattern of an undirected graph; `loops` adds a diagonal entry to every vertex.
template <class T = double>
Csr<T> graph(index_t n, const Edges& edges, bool loops = false) {
  Coo<T> c;
  c.rows = c.cols = n;
  for (auto [u, v] : edges) {
    c.push_back(u, v, T(1));
    c.push_back(v, u, T(1));
  }
  if (loops)
    for (index_t i = 0; i < n; ++i) c.push_back(i, i, T(1));
  return coo_to_csr(c);
}

// 5-point grid of rows x cols vertices; vertex (r, c) is numbered label[r * cols + c]
// where label is a seeded random permutation, or the identity for seed 0. Built directly
// in CSR because the large test has 10^6 vertices.
Csr<double> grid(index_t rows, index_t cols, std::uint32_t seed = 0) {
  const index_t n = rows * cols;
  std::vector<index_t> label(static_cast<std::size_t>(n));
  std::iota(label.begin(), label.end(), 0);
  if (seed != 0) std::shuffle(label.begin(), label.end(), std::mt19937(seed));
  auto neighbours = [&](index_t v, auto&& emit) {
    const index_t r = v / cols;
    const index_t c = v % cols;
    if (r > 0) emit(v - cols);
    if (c > 0) emit(v - 1);
    if (c + 1 < cols) emit(v + 1);
    if (r + 1 < rows) emit(v + cols);
  };
  Csr<double> a;
  a.rows = a.cols = n;
  a.row_ptr.assign(static_cast<std::size_t>(n) + 1, 0);
  for (index_t v = 0; v < n; ++v) neighbours(v, [&](index_t) { ++a.row_ptr[label[v] + 1]; });
  std::partial_sum(a.row_ptr.begin(), a.row_ptr.end(), a.row_ptr.begin());
  a.col.resize(static_cast<std::size_t>(a.row_ptr[n]));
  for (index_t v = 0; v < n; ++v) {
    index_t k = a.row_ptr[label[v]];
    neighbours(v, [&](index_t w) { a.col[k++] = label[w]; });
    std::sort(a.col.begin() + a.row_ptr[label[v]], a.col.begin() + k);
  }
  a.val.assign(a.col.size(), 1.0);
  return a;
}

// B = P A P^T with perm[new] = old.
Csr<double> permuted(const Csr<double>& a, const std::vector<index_t>& perm) {
  std::vector<index_t> inverse(perm.size());
  for (std::size_t i = 0; i < perm.size(); ++i) inverse[perm[i]] = static_cast<index_t>(i);
  Coo<double> c;
  c.rows = a.rows;
  c.cols = a.cols;
  for (index_t i = 0; i < a.rows; ++i)
    for (index_t k = a.row_begin(i); k < a.row_end(i); ++k)
      c.push_back(inverse[i], inverse[a.col[k]], a.val[k]);
  return coo_to_csr(c);
}

bool is_permutation(const std::vector<index_t>& p, index_t n) {
  if (p.size() != static_cast<std::size_t>(n)) return false;
  std::vector<std::uint8_t> seen(p.size(), 0);
  for (index_t v : p) {
    if (v < 0 || v >= n || seen[v]) return false;
    seen[v] = 1;
  }
  return true;
}

TEST(RcmBasic, EmptyMatrix) {
  const RcmResult r = rcm(Csr<double>{});
  EXPECT_TRUE(r.perm.empty());
  EXPECT_TRUE(r.start_nodes.empty());
  EXPECT_EQ(r.components, 0);
}

TEST(RcmBasic, SingleVertex) {
  for (bool loop : {false, true}) {
    const RcmResult r = rcm(graph(1, {}, loop));
    EXPECT_EQ(r.perm, (std::vector<index_t>{0}));
    EXPECT_EQ(r.start_nodes, (std::vector<index_t>{0}));
    EXPECT_EQ(r.components, 1);
  }
}

TEST(RcmBasic, RejectsNonSquare) {
  Csr<double> a;
  a.rows = 2;
  a.cols = 3;
  a.row_ptr = {0, 0, 0};
  EXPECT_THROW(rcm(a), std::invalid_argument);
  EXPECT_THROW(pseudo_peripheral_node(a, 0), std::invalid_argument);
}

TEST(RcmHandChecked, PathNumberedOutOfOrder) {
  // 3 - 0 - 4 - 1 - 5 - 2. From 0 the BFS ends at 2, which is one end: 6 levels from
  // there, as many as vertices, so no further search.
  const auto a = graph(6, {{3, 0}, {0, 4}, {4, 1}, {1, 5}, {5, 2}});
  EXPECT_EQ(bandwidth(a), 4);
  const PseudoPeripheral p = pseudo_peripheral_node(a, 0);
  EXPECT_EQ(p.node, 2);
  EXPECT_EQ(p.eccentricity, 5);
  EXPECT_EQ(p.bfs_count, 2);
  const RcmResult r = rcm(a);
  EXPECT_EQ(r.perm, (std::vector<index_t>{3, 0, 4, 1, 5, 2}));
  EXPECT_EQ(r.start_nodes, (std::vector<index_t>{2}));
  EXPECT_EQ(bandwidth(permuted(a, r.perm)), 1);
}

TEST(RcmHandChecked, Star) {
  // Centre 0, leaves 1..5. BFS 0 (2 levels) -> leaf 1 (3 levels) -> leaf 2 (3, not
  // deeper): leaf 1, the last root whose BFS was deeper.
  const auto a = graph(6, {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 5}});
  const PseudoPeripheral p = pseudo_peripheral_node(a, 0);
  EXPECT_EQ(p.node, 1);
  EXPECT_EQ(p.eccentricity, 2);
  EXPECT_EQ(p.bfs_count, 3);
  // rcm starts from leaf 1 (least degree), and leaf 2 is no deeper. CM from 1: 1, 0, 2,
  // 3, 4, 5; reversed.
  const RcmResult r = rcm(a);
  EXPECT_EQ(r.perm, (std::vector<index_t>{5, 4, 3, 2, 0, 1}));
  EXPECT_EQ(r.start_nodes, (std::vector<index_t>{1}));
}

TEST(RcmHandChecked, CompleteGraph) {
  Edges e;
  for (index_t i = 0; i < 5; ++i)
    for (index_t j = i + 1; j < 5; ++j) e.emplace_back(i, j);
  const auto a = graph(5, e);
  const RcmResult r = rcm(a);  // from 0; the BFS from 1 is no deeper
  EXPECT_EQ(r.start_nodes, (std::vector<index_t>{0}));
  EXPECT_EQ(r.perm, (std::vector<index_t>{4, 3, 2, 1, 0}));
  EXPECT_EQ(bandwidth(permuted(a, r.perm)), 4);
}

TEST(RcmHandChecked, TwoComponentsReversedAsAWhole) {
  // {0, 2, 4} as the path 0 - 2 - 4 and {1, 3}: CM order 0 2 4 | 1 3, then reversed.
  const auto a = graph(5, {{0, 2}, {2, 4}, {1, 3}});
  const RcmResult r = rcm(a);
  EXPECT_EQ(r.components, 2);
  EXPECT_EQ(r.start_nodes, (std::vector<index_t>{0, 1}));
  EXPECT_EQ(r.perm, (std::vector<index_t>{3, 1, 4, 2, 0}));
  EXPECT_EQ(bandwidth(permuted(a, r.perm)), 1);
}

TEST(RcmHandChecked, IsolatedVerticesAreComponents) {
  const auto a = graph(4, {{1, 2}});
  const RcmResult r = rcm(a);
  // Degree 0 first: {0}, {3}, then {1, 2} from 1; CM order 0 | 3 | 1 2, reversed.
  EXPECT_EQ(r.components, 3);
  EXPECT_EQ(r.start_nodes, (std::vector<index_t>{0, 3, 1}));
  EXPECT_EQ(r.perm, (std::vector<index_t>{2, 1, 3, 0}));
}

TEST(RcmHandChecked, ComponentsInOrderOfTheirLeastDegreeVertex) {
  // The triangle {0, 1, 2} (degrees 2) and the path 3 - 4 (degrees 1): the path first,
  // from 3 (its BFS has as many levels as vertices); then the triangle from 0 (the BFS
  // from 1 is no deeper). CM order 3 4 | 0 1 2, reversed.
  const auto a = graph(5, {{0, 1}, {1, 2}, {2, 0}, {3, 4}});
  const RcmResult r = rcm(a);
  EXPECT_EQ(r.start_nodes, (std::vector<index_t>{3, 0}));
  EXPECT_EQ(r.perm, (std::vector<index_t>{2, 1, 0, 4, 3}));
}

TEST(LeastDegreeFirst, HandsOutUnvisitedVerticesByDegreeThenIndex) {
  const std::vector<index_t> degree = {3, 1, 2, 1, 0, 2};
  std::vector<std::uint8_t> visited(6, 0);
  int sorts = 0;
  LeastDegreeFirst next(6, 4, [&](index_t v) {
    sorts += v == 0;
    return degree[v];
  });
  EXPECT_EQ(next.next(visited.data()), 4);  // the given least vertex, without a sort
  EXPECT_EQ(sorts, 0);
  visited[4] = visited[3] = 1;
  EXPECT_EQ(next.next(visited.data()), 1);
  EXPECT_EQ(sorts, 1);
  visited[1] = visited[5] = 1;
  EXPECT_EQ(next.next(visited.data()), 2);
  visited[2] = 1;
  EXPECT_EQ(next.next(visited.data()), 0);
  visited[0] = 1;
  EXPECT_EQ(next.next(visited.data()), -1);
  EXPECT_EQ(sorts, 1);
}

TEST(RcmHandChecked, SelfLoopsIgnored) {
  // Loops on some leaves would raise their degree, and so change the order, if counted.
  const Edges star = {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 5}};
  Edges with_loops = star;
  with_loops.emplace_back(2, 2);
  with_loops.emplace_back(1, 1);
  const RcmResult plain = rcm(graph(6, star));
  EXPECT_EQ(rcm(graph(6, with_loops)).perm, plain.perm);
  EXPECT_EQ(rcm(graph(6, star, true)).perm, plain.perm);
  const PseudoPeripheral p = pseudo_peripheral_node(graph(6, with_loops), 0);
  EXPECT_EQ(p.node, 1);  // counting the loops, leaf 3 would have been the least-degree candidate
}

TEST(RcmGrid, BandwidthEqualsSide) {
  for (index_t side : {3, 6, 10}) {
    for (std::uint32_t seed : {0u, 5u}) {
      const auto a = grid(side, side, seed);
      const RcmResult r = rcm(a);
      ASSERT_TRUE(is_permutation(r.perm, side * side));
      EXPECT_EQ(bandwidth(permuted(a, r.perm)), side) << "side " << side << " seed " << seed;
    }
  }
}

TEST(RcmGrid, ReducesBandwidthAndProfileOfScrambledGrid) {
  const auto a = grid(30, 40, 17);
  const RcmResult r = rcm(a);
  ASSERT_TRUE(is_permutation(r.perm, a.rows));
  const auto b = permuted(a, r.perm);
  EXPECT_LE(bandwidth(b), bandwidth(a));
  EXPECT_LE(bandwidth(b), 31);
  EXPECT_LT(profile(b), profile(a));
}

TEST(RcmFrom, GivenStarts) {
  // Path 0 - 1 - 2 - 3 - 4 from its middle: 2, {1, 3}, then 0 and 4.
  const auto path = graph(5, {{0, 1}, {1, 2}, {2, 3}, {3, 4}});
  const RcmResult r = rcm_from(path, std::vector<index_t>{2});
  EXPECT_EQ(r.perm, (std::vector<index_t>{4, 0, 3, 1, 2}));
  EXPECT_EQ(r.start_nodes, (std::vector<index_t>{2}));

  const auto two = graph(5, {{0, 2}, {2, 4}, {1, 3}});
  const RcmResult from = rcm_from(two, std::vector<index_t>{4, 3});
  EXPECT_EQ(from.perm, (std::vector<index_t>{1, 3, 0, 2, 4}));
  // Same starts as rcm() picks -> same ordering.
  const auto g = grid(8, 9, 3);
  const RcmResult auto_r = rcm(g);
  EXPECT_EQ(rcm_from(g, auto_r.start_nodes).perm, auto_r.perm);
}

TEST(RcmFrom, RejectsBadStarts) {
  const auto two = graph(5, {{0, 2}, {2, 4}, {1, 3}});
  using S = std::vector<index_t>;
  EXPECT_THROW(rcm_from(two, S{0}), std::invalid_argument);        // too few
  EXPECT_THROW(rcm_from(two, S{0, 1, 2}), std::invalid_argument);  // too many
  EXPECT_THROW(rcm_from(two, S{1, 0}), std::invalid_argument);     // other component
  EXPECT_THROW(rcm_from(two, S{0, 2}), std::invalid_argument);     // earlier component
  EXPECT_THROW(rcm_from(two, S{0, 7}), std::invalid_argument);     // out of range
}

TEST(RcmPseudoPeripheral, MaskRestrictsTheGraph) {
  // Path 3 - 0 - 1 - 2. Without 3, the last level {0, 2} of the BFS from 1 is a tie in
  // (masked) degree, so 0 wins by index; counting 3 would have picked 2.
  const auto g = graph(4, {{0, 1}, {1, 2}, {0, 3}});
  const std::vector<std::uint8_t> mask = {1, 1, 1, 0};
  const PseudoPeripheral p = pseudo_peripheral_node(g, 1, mask);
  EXPECT_EQ(p.node, 0);
  EXPECT_EQ(p.eccentricity, 2);
  EXPECT_EQ(p.bfs_count, 2);
  const PseudoPeripheral whole = pseudo_peripheral_node(g, 1);
  EXPECT_EQ(whole.node, 3);
  EXPECT_EQ(whole.eccentricity, 3);
  EXPECT_THROW(pseudo_peripheral_node(g, 3, mask), std::invalid_argument);
  EXPECT_THROW(pseudo_peripheral_node(g, 4), std::invalid_argument);
  EXPECT_THROW(pseudo_peripheral_node(g, 0, std::vector<std::uint8_t>(3, 1)),
               std::invalid_argument);
}

TEST(RcmDeterminism, RepeatableAndIndependentOfValueType) {
  const auto a = grid(25, 25, 99);
  const RcmResult first = rcm(a);
  const RcmResult second = rcm(a);
  EXPECT_EQ(first.perm, second.perm);
  EXPECT_EQ(first.start_nodes, second.start_nodes);
  Csr<float> f;
  f.rows = a.rows;
  f.cols = a.cols;
  f.row_ptr = a.row_ptr;
  f.col = a.col;
  f.val.assign(a.val.size(), 1.0f);
  EXPECT_EQ(rcm(f).perm, first.perm);
}

TEST(RcmLarge, ScrambledGridOfAMillionRows) {
  constexpr index_t side = 1000;
  const auto a = grid(side, side, 2024);
  ASSERT_GT(bandwidth(a), 100 * side);
  const auto t0 = std::chrono::steady_clock::now();
  const RcmResult r = rcm(a);
  const auto t1 = std::chrono::steady_clock::now();
  const double ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
  std::cout << "[ info     ] rcm on a scrambled " << side << "x" << side << " grid: " << ms
            << " ms\n";
  RecordProperty("rcm_ms", std::to_string(ms));
  ASSERT_TRUE(is_permutation(r.perm, a.rows));
  EXPECT_EQ(r.components, 1);
  // Bandwidth of P A P^T without building it: |new(u) - new(v)| over all edges.
  std::vector<index_t> inverse(r.perm.size());
  for (std::size_t i = 0; i < r.perm.size(); ++i) inverse[r.perm[i]] = static_cast<index_t>(i);
  index_t bw = 0;
  for (index_t u = 0; u < a.rows; ++u)
    for (index_t k = a.row_begin(u); k < a.row_end(u); ++k)
      bw = std::max(bw, std::abs(inverse[u] - inverse[a.col[k]]));
  EXPECT_LE(bw, side + side / 10);
}

}  // namespace
}  // namespace apiary::sparse
