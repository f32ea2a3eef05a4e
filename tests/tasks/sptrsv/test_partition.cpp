// Partitioning into TASSL sub-graphs: hand-checked cases, merging of small components,
// bad input, and feasibility over many random DAGs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <future>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sparse/analysis.hpp"
#include "sparse/convert.hpp"
#include "sparse/generators.hpp"
#include "sparse/transform.hpp"
#include "tasks/sptrsv/analysis.hpp"
#include "tasks/sptrsv/partition.hpp"
#include "tests/tasks/sptrsv/dag_cases.hpp"
#include "tests/tasks/sptrsv/solve_cases.hpp"

namespace {

using apiary::sparse::Coo;
using apiary::sparse::Csr;
using apiary::sparse::index_t;
using namespace apiary::sptrsv;

using apiary::sptrsv::testing::chain;
using apiary::sptrsv::testing::from_edges;

Csr<double> diamond() { return from_edges(4, {{0, 1}, {0, 2}, {1, 3}, {2, 3}}); }

std::int64_t off_diagonal(const Csr<double>& l) {
  return static_cast<std::int64_t>(l.nnz()) - l.rows;
}

// Everything a correct partition and its sub-graph DAG must satisfy.
void expect_valid(const Csr<double>& l, index_t n_max, const std::string& label, Split split = Split::heuristic) {
  SCOPED_TRACE(label + ", n_max " + std::to_string(n_max) + ", split by " + split_name(split));
  PartitionStats st;
  const Partition p = partition(l, n_max, &st, split);
  std::string why;
  ASSERT_TRUE(is_feasible(l, p, &why)) << why;
  EXPECT_EQ(p.n_max, n_max);
  for (index_t g = 0; g < p.parts; ++g)
    EXPECT_GT(p.part_ptr[g + 1], p.part_ptr[g]) << "empty " << g;
  // The permutation that makes sub-graphs contiguous keeps L lower triangular: the
  // block form the device solve relies on.
  EXPECT_TRUE(apiary::sparse::is_triangular(apiary::sparse::permute_symmetric(l, p.vertices),
                                            apiary::sparse::Triangle::lower));
  if (l.rows > 0) {
    EXPECT_GE(p.parts, (l.rows + n_max - 1) / n_max);
  }
  EXPECT_EQ(st.merged_subgraphs + st.split_subgraphs, p.parts);
  EXPECT_EQ(st.merged_components + st.split_components, st.components);
  // With n_init = 1 the bounded heuristic fills sub-graphs without gaps, so it cannot
  // run out of room (docs/sptrsv.md); the unbounded fallback is a safety net only.
  EXPECT_EQ(st.unbounded_fallbacks, 0);

  const SubgraphDag d = subgraph_dag(l, p);
  EXPECT_EQ(d.internal_edges + d.external_edges, off_diagonal(l));
  if (split == Split::bands) {
    // A path of sub-graphs crosses disjoint ranges of row levels.
    std::vector<index_t> level;
    EXPECT_LE(d.levels, apiary::sparse::row_levels(l, apiary::sparse::Triangle::lower, level));
    EXPECT_EQ(st.heuristic_attempts, 0);
  } else {
    EXPECT_EQ(st.band_cuts, 0);
  }
  if (split == Split::tiles) {
    EXPECT_EQ(st.heuristic_attempts, 0);
    if (st.split_components > 0) {
      EXPECT_GT(st.tiles, 0);
    }
  } else {
    EXPECT_EQ(st.tiles, 0);
  }
  EXPECT_EQ(d.subgraphs, p.parts);
  ASSERT_EQ(d.order.size(), static_cast<std::size_t>(p.parts));
  for (index_t g = 0; g < p.parts; ++g) {
    for (index_t k = d.pred_ptr[g]; k < d.pred_ptr[g + 1]; ++k) {
      EXPECT_LT(d.pred[k], g);
      EXPECT_LT(d.level[d.pred[k]], d.level[g]);
      if (k > d.pred_ptr[g]) {
        EXPECT_LT(d.pred[k - 1], d.pred[k]);
      }
    }
    if (d.level[g] > 0) {
      bool tight = false;  // the level is the longest path, not just an upper bound
      for (index_t k = d.pred_ptr[g]; k < d.pred_ptr[g + 1]; ++k)
        tight |= d.level[d.pred[k]] + 1 == d.level[g];
      EXPECT_TRUE(tight) << "sub-graph " << g;
    }
  }
  for (index_t lv = 0; lv < d.levels; ++lv) EXPECT_GT(d.level_ptr[lv + 1], d.level_ptr[lv]);

  // The levels alone (what analyze compares its candidates by) are the whole DAG's.
  const SubgraphDag levels = detail::subgraph_dag_of_feasible(l, p, detail::DagContent::levels);
  EXPECT_EQ(levels.subgraphs, d.subgraphs);
  EXPECT_EQ(levels.level, d.level);
  EXPECT_EQ(levels.levels, d.levels);
  EXPECT_EQ(levels.level_ptr, d.level_ptr);
  EXPECT_EQ(levels.order, d.order);
  EXPECT_EQ(levels.internal_edges, d.internal_edges);
  EXPECT_EQ(levels.external_edges, d.external_edges);
  EXPECT_TRUE(levels.pred.empty());
  EXPECT_EQ(levels.pred_ptr.size(), 1u);
  // Its predecessors added afterwards, on several threads (ranges down to one vertex):
  // the whole DAG's lists.
  for (unsigned threads : {1u, 3u}) {
    SubgraphDag added = levels;
    detail::add_predecessors(added, l, p, threads, 1);
    EXPECT_EQ(added.pred_ptr, d.pred_ptr);
    EXPECT_EQ(added.pred, d.pred);
  }
}

TEST(PartitionHand, ChainOfFiveWithNmaxTwo) {
  const Csr<double> l = chain(5);
  const Partition p = partition(l, 2);
  EXPECT_EQ(p.parts, 3);
  EXPECT_EQ(p.part, (std::vector<index_t>{0, 0, 1, 1, 2}));
  EXPECT_EQ(p.part_ptr, (std::vector<index_t>{0, 2, 4, 5}));
  EXPECT_EQ(p.vertices, (std::vector<index_t>{0, 1, 2, 3, 4}));
  const SubgraphDag d = subgraph_dag(l, p);
  EXPECT_EQ(d.levels, 3);
  EXPECT_EQ(d.pred, (std::vector<index_t>{0, 1}));
  EXPECT_EQ(d.pred_ptr, (std::vector<index_t>{0, 0, 1, 2}));
  EXPECT_EQ(d.internal_edges, 2);
  EXPECT_EQ(d.external_edges, 2);
  EXPECT_DOUBLE_EQ(d.internal_share(), 0.5);
}

// Bands: the diamond 0 -> {1, 2} -> 3 at n_max 2. Level 1 would join 0, 1 and 2 into one
// component of 3, so it starts a second band, whose two vertices are separate components
// there and share one sub-graph; level 2 would join all three, a third band.
TEST(PartitionHand, DiamondInBands) {
  PartitionStats st;
  const Partition p = partition(diamond(), 2, &st, Split::bands);
  EXPECT_EQ(p.part, (std::vector<index_t>{0, 1, 1, 2}));
  EXPECT_EQ(st.band_cuts, 2);
  EXPECT_EQ(st.split_components, 1);
  EXPECT_EQ(st.split_subgraphs, 3);
  EXPECT_EQ(subgraph_dag(diamond(), p).levels, 3);
}

// Two chains 0 -> 2 -> 4 -> 6 and 1 -> 3 -> 5 -> 7 joined in 8, n_max 4: levels 0-3 are one
// band of two components of 4, side by side in two sub-graphs; level 4 (vertex 8) would
// join them and starts the next band.
TEST(PartitionHand, BandsKeepIndependentPiecesSideBySide) {
  const Csr<double> l = from_edges(9, {{0, 2}, {2, 4}, {4, 6}, {1, 3}, {3, 5}, {5, 7}, {6, 8}, {7, 8}});
  PartitionStats st;
  const Partition p = partition(l, 4, &st, Split::bands);
  std::string why;
  ASSERT_TRUE(is_feasible(l, p, &why)) << why;
  EXPECT_EQ(p.part, (std::vector<index_t>{0, 1, 0, 1, 0, 1, 0, 1, 2}));
  EXPECT_EQ(st.band_cuts, 1);
  EXPECT_EQ(subgraph_dag(l, p).levels, 2);
}

// Tiles: a 3D grid's Laplacian in natural order has three strides (1, nx, nx * ny), its
// coordinates along them are the grid's, and tiles of n_max 8 are boxes of 2^3, numbered
// by their wavefront: the sub-graph levels are the boxes' diagonals, 3 * (6 / 2) - 2 = 7
// for 16 row levels. The diamond has one stride group (offsets 1 and 2 are both thick).
TEST(PartitionHand, GridInTiles) {
  const Csr<double> l =
      apiary::sparse::lower_triangle(apiary::sparse::poisson3d<double>(6, 6, 6), apiary::sparse::Diagonal::keep);
  const PartitionInput in(l);
  EXPECT_EQ(in.stride_dims, 3);
  EXPECT_EQ(in.stride_bucket[0], 0);  // offset 1
  EXPECT_EQ(in.stride_bucket[2], 1);  // offset 6
  EXPECT_EQ(in.stride_bucket[5], 2);  // offset 36
  PartitionStats st;
  const Partition p = partition(in, 8, &st, Split::tiles);
  std::string why;
  ASSERT_TRUE(is_feasible(l, p, &why)) << why;
  EXPECT_EQ(st.tiles, 27);
  EXPECT_EQ(p.parts, 27);
  for (index_t g = 0; g < p.parts; ++g) EXPECT_EQ(p.part_ptr[g + 1] - p.part_ptr[g], 8) << "box " << g;
  // The box of vertex (x, y, z) = x + 6 (y + 6 z) holds (x ^ 1, y, z) and (x, y ^ 1, z).
  for (index_t v = 0; v < l.rows; ++v) {
    EXPECT_EQ(p.part[v], p.part[v ^ 1]) << v;
    const index_t x = v % 6, y = v / 6 % 6, z = v / 36;
    EXPECT_EQ(p.part[v], p.part[x + 6 * ((y ^ 1) + 6 * z)]) << v;
  }
  EXPECT_EQ(subgraph_dag(l, p).levels, 7);
  std::vector<index_t> level;
  EXPECT_EQ(apiary::sparse::row_levels(l, apiary::sparse::Triangle::lower, level), 16);
  EXPECT_EQ(PartitionInput(diamond()).stride_dims, 1);
}

TEST(PartitionHand, DiamondWhole) {
  const Partition p = partition(diamond(), 4);
  EXPECT_EQ(p.parts, 1);
  EXPECT_EQ(subgraph_dag(diamond(), p).internal_share(), 1.0);
}

TEST(PartitionHand, DiamondSplitInTwo) {
  // Root 0 opens sub-graph 0; 1 joins it; 2 finds it full and opens 1; 3 has parents in
  // 0 and 1 and follows the higher one.
  const Partition p = partition(diamond(), 2);
  EXPECT_EQ(p.part, (std::vector<index_t>{0, 0, 1, 1}));
  const SubgraphDag d = subgraph_dag(diamond(), p);
  EXPECT_EQ(d.levels, 2);
  EXPECT_EQ(d.internal_edges, 2);
  EXPECT_EQ(d.external_edges, 2);
}

TEST(PartitionHand, EmptyMatrix) {
  const Csr<double> l;
  const Partition p = partition(l, 4);
  EXPECT_EQ(p.parts, 0);
  EXPECT_EQ(p.part_ptr, (std::vector<index_t>{0}));
  EXPECT_TRUE(is_feasible(l, p));
  const SubgraphDag d = subgraph_dag(l, p);
  EXPECT_EQ(d.levels, 0);
  EXPECT_EQ(d.internal_share(), 1.0);
}

TEST(PartitionHand, DiagonalMatrixIsMergedIntoFullSubgraphs) {
  const Csr<double> l = from_edges(10, {});
  PartitionStats st;
  const Partition p = partition(l, 3, &st);
  EXPECT_EQ(p.parts, 4);
  EXPECT_EQ(p.part_ptr, (std::vector<index_t>{0, 3, 6, 9, 10}));
  EXPECT_EQ(st.components, 10);
  EXPECT_EQ(st.split_components, 0);
  const SubgraphDag d = subgraph_dag(l, p);
  EXPECT_EQ(d.levels, 1);
  EXPECT_EQ(d.internal_edges + d.external_edges, 0);
}

TEST(PartitionHand, NmaxOneGivesOneVertexPerSubgraph) {
  const Csr<double> l = chain(7);
  const Partition p = partition(l, 1);
  EXPECT_EQ(p.parts, 7);
  for (index_t v = 0; v < 7; ++v) EXPECT_EQ(p.part[v], v);
  EXPECT_EQ(subgraph_dag(l, p).levels, 7);
  EXPECT_EQ(subgraph_dag(l, p).internal_edges, 0);
}

TEST(PartitionHand, NmaxAtLeastNGivesOneSubgraph) {
  const Csr<double> l = apiary::sparse::random_lower_dag<double>({200, 12, 5}, 3);
  for (index_t n_max : {200, 201, 100000}) {
    const Partition p = partition(l, n_max);
    EXPECT_EQ(p.parts, 1);
    EXPECT_EQ(subgraph_dag(l, p).internal_share(), 1.0);
  }
}

TEST(PartitionHand, LongChainStaysFeasible) {
  const Csr<double> l = chain(1000);
  for (index_t n_max : {1, 2, 3, 7, 999, 1000}) {
    const Partition p = partition(l, n_max);
    std::string why;
    EXPECT_TRUE(is_feasible(l, p, &why)) << why;
    EXPECT_EQ(p.parts, (1000 + n_max - 1) / n_max);
  }
}

TEST(PartitionMerge, SmallComponentsFillSubgraphsGreedily) {
  for (index_t k : {1, 3, 10, 17})
    for (index_t s : {1, 2, 5})
      for (index_t n_max : {2 * s, 2 * s + 1, 3 * s, 7 * s - 1, 40}) {
        // density 1 makes every block a connected component of exactly s vertices
        const Csr<double> l = apiary::sparse::block_diagonal_lower<double>(k, s, 1.0, 11);
        PartitionStats st;
        const Partition p = partition(l, n_max, &st);
        const index_t per = n_max / s;
        EXPECT_EQ(p.parts, (k + per - 1) / per) << "k " << k << " s " << s << " n_max " << n_max;
        EXPECT_EQ(st.components, k);
        EXPECT_EQ(st.merged_components, k);
        EXPECT_EQ(subgraph_dag(l, p).internal_share(), 1.0);
      }
}

TEST(PartitionMerge, InterleavedComponentsKeepFeasibility) {
  // random_lower_dag hides its components in the ordering (row g in component g % c).
  const Csr<double> l = apiary::sparse::random_lower_dag<double>({600, 6, 30}, 5);
  const Partition p = partition(l, 40);
  EXPECT_EQ(p.parts, 15);  // 30 components of 20 vertices, two per sub-graph
  EXPECT_TRUE(is_feasible(l, p));
}

TEST(PartitionErrors, RejectsBadInput) {
  EXPECT_THROW(partition(chain(3), 0), std::invalid_argument);
  EXPECT_THROW(partition(chain(3), -4), std::invalid_argument);

  Csr<double> rect;
  rect.rows = 2;
  rect.cols = 3;
  rect.row_ptr = {0, 1, 2};
  rect.col = {0, 1};
  rect.val = {1, 1};
  EXPECT_THROW(partition(rect, 2), std::invalid_argument);

  Coo<double> upper;
  upper.rows = upper.cols = 3;
  for (index_t i = 0; i < 3; ++i) upper.push_back(i, i, 1.0);
  upper.push_back(1, 2, 1.0);
  try {
    partition(apiary::sparse::coo_to_csr(upper), 2);
    FAIL() << "entry above the diagonal accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("above the diagonal in row 1"), std::string::npos)
        << e.what();
  }

  Coo<double> missing;
  missing.rows = missing.cols = 4;
  missing.push_back(0, 0, 1.0);
  missing.push_back(1, 1, 1.0);
  missing.push_back(2, 0, 1.0);
  missing.push_back(3, 3, 1.0);
  try {
    partition(apiary::sparse::coo_to_csr(missing), 2);
    FAIL() << "missing diagonal accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("missing diagonal at row 2"), std::string::npos)
        << e.what();
  }
}

TEST(PartitionFeasibility, DetectsViolations) {
  const Csr<double> l = chain(4);
  Partition good = partition(l, 2);
  ASSERT_TRUE(is_feasible(l, good));
  std::string why;

  Partition too_small = good;
  too_small.n_max = 1;
  EXPECT_FALSE(is_feasible(l, too_small, &why));
  EXPECT_NE(why.find("more than n_max"), std::string::npos) << why;

  // Swapping the two sub-graphs sends the edge 1 -> 2 downwards.
  Partition reversed = good;
  reversed.part = {1, 1, 0, 0};
  reversed.vertices = {2, 3, 0, 1};
  EXPECT_FALSE(is_feasible(l, reversed, &why));
  EXPECT_NE(why.find("down to"), std::string::npos) << why;

  Partition twice = good;
  twice.vertices = {0, 0, 2, 3};
  EXPECT_FALSE(is_feasible(l, twice, &why));

  Partition short_part = good;
  short_part.part.pop_back();
  EXPECT_FALSE(is_feasible(l, short_part, &why));

  EXPECT_THROW(subgraph_dag(l, reversed), std::invalid_argument);
}

TEST(PartitionProperty, RandomDagsAreFeasible) {
  apiary::sptrsv::testing::for_each_random_dag(
      [](const Csr<double>& l, index_t n_max, const std::string& label) { expect_valid(l, n_max, label); });
}

TEST(PartitionProperty, RandomDagsAreFeasibleInBands) {
  apiary::sptrsv::testing::for_each_random_dag([](const Csr<double>& l, index_t n_max, const std::string& label) {
    expect_valid(l, n_max, label, Split::bands);
  });
}

// Whatever the strides (one group, several, none found), tiles are feasible.
TEST(PartitionProperty, RandomDagsAreFeasibleInTiles) {
  apiary::sptrsv::testing::for_each_random_dag([](const Csr<double>& l, index_t n_max, const std::string& label) {
    expect_valid(l, n_max, label, Split::tiles);
  });
}

// Several components, a mesh, a chain: the inputs of the shared-input tests.
std::vector<Csr<double>> shared_input_cases() {
  return {apiary::sparse::block_diagonal_lower<double>(6, 300, 0.02, 3),
          apiary::sparse::lower_triangle(apiary::sparse::poisson2d<double>(30, 20), apiary::sparse::Diagonal::keep),
          chain(50)};
}

// analyze partitions one input for every n_max candidate: a shared PartitionInput must
// give what a fresh partition of the matrix gives, for every n_max in turn.
TEST(PartitionProperty, SharedInputGivesTheSamePartitionForEveryNmax) {
  for (const Csr<double>& l : shared_input_cases()) {
    const PartitionInput in(l);
    for (index_t n_max : {1, 7, 32, 64, 1000, 64, 7}) {
      SCOPED_TRACE("rows " + std::to_string(l.rows) + ", n_max " + std::to_string(n_max));
      PartitionStats shared_stats, fresh_stats;
      const Partition shared = partition(in, n_max, &shared_stats);
      const Partition fresh = partition(l, n_max, &fresh_stats);
      EXPECT_EQ(shared.part, fresh.part);
      EXPECT_EQ(shared.vertices, fresh.vertices);
      EXPECT_EQ(shared.part_ptr, fresh.part_ptr);
      EXPECT_EQ(shared_stats.heuristic_attempts, fresh_stats.heuristic_attempts);
      const SubgraphDag checked = subgraph_dag(l, shared);
      const SubgraphDag unchecked = detail::subgraph_dag_of_feasible(l, shared);
      EXPECT_EQ(checked.pred, unchecked.pred);
      EXPECT_EQ(checked.level, unchecked.level);
    }
  }
  EXPECT_THROW(PartitionInput(apiary::sparse::poisson2d<double>(3, 3)), std::invalid_argument);
}

// The splitting heuristic reads each vertex's parents as positions in the visiting
// order: they must be exactly the vertex's parents, each visited before it.
TEST(PartitionProperty, VisitParentsArePositionsOfEachVertexsParents) {
  for (const Csr<double>& l : shared_input_cases()) {
    const PartitionInput in(l);
    for (index_t c = 0; c < in.components; ++c)
      for (int criterion = 0; criterion < 3; ++criterion) {
        SCOPED_TRACE("rows " + std::to_string(l.rows) + ", component " + std::to_string(c) + ", criterion " +
                     std::to_string(criterion));
        const auto order = in.visit_order(c, criterion);
        const PartitionInput::Parents parents = in.visit_parents(c, criterion);
        ASSERT_EQ(parents.ptr.size(), order.size() + 1);
        ASSERT_EQ(parents.ptr[0], 0);
        for (std::size_t q = 0; q < order.size(); ++q) {
          std::vector<index_t> listed, expected;
          for (index_t e = parents.ptr[q]; e < parents.ptr[q + 1]; ++e) {
            ASSERT_LT(static_cast<std::size_t>(parents.of[e]), q) << "a parent visited after its child";
            listed.push_back(order[parents.of[e]]);
          }
          const index_t v = order[q];
          for (index_t e = l.row_begin(v); e < l.row_end(v); ++e)
            if (l.col[e] < v) expected.push_back(l.col[e]);
          std::sort(listed.begin(), listed.end());
          EXPECT_EQ(listed, expected) << "vertex " << v;
        }
      }
  }
}

// analyze's candidates partition one shared input on several threads at once, after
// prepare_orders has made the first criterion's orders: each must still get what a fresh
// partition of the matrix gives (the orders are made once, on first use, and shared).
TEST(PartitionProperty, ConcurrentCandidatesOnASharedInputGiveTheFreshPartitions) {
  // Large enough (over 2^17 vertices) for prepare_orders to deal components to several
  // threads and to sort the mesh's frontiers on several (on a machine with 2 or more).
  for (const Csr<double>& l : {apiary::sparse::block_diagonal_lower<double>(8, 17000, 0.0003, 5),
                               apiary::sparse::lower_triangle(apiary::sparse::poisson2d<double>(400, 400),
                                                              apiary::sparse::Diagonal::keep)}) {
    for (const bool prepared : {false, true}) {
      const PartitionInput in(l);
      if (prepared) in.prepare_orders(8);
      const std::vector<index_t> n_maxes{1, 8, 32, 100, 256, 1000, 4096};
      std::vector<std::future<Partition>> shared;
      for (index_t n_max : n_maxes)
        shared.push_back(std::async(std::launch::async, [&in, n_max] { return partition(in, n_max); }));
      for (std::size_t i = 0; i < n_maxes.size(); ++i) {
        SCOPED_TRACE("rows " + std::to_string(l.rows) + ", n_max " + std::to_string(n_maxes[i]) +
                     (prepared ? ", prepared" : ""));
        const Partition got = shared[i].get();
        const Partition fresh = partition(l, n_maxes[i]);
        EXPECT_EQ(got.part, fresh.part);
        EXPECT_EQ(got.vertices, fresh.vertices);
      }
    }
  }
}

TEST(PartitionProperty, BlockDiagonalAndPoissonAreFeasible) {
  apiary::sptrsv::testing::for_each_structured_case(
      [](const Csr<double>& l, index_t n_max, const std::string& label) { expect_valid(l, n_max, label); });
}

TEST(PartitionProperty, BlockDiagonalAndPoissonAreFeasibleInBands) {
  apiary::sptrsv::testing::for_each_structured_case([](const Csr<double>& l, index_t n_max, const std::string& label) {
    expect_valid(l, n_max, label, Split::bands);
  });
}

TEST(PartitionProperty, BlockDiagonalAndPoissonAreFeasibleInTiles) {
  apiary::sptrsv::testing::for_each_structured_case([](const Csr<double>& l, index_t n_max, const std::string& label) {
    expect_valid(l, n_max, label, Split::tiles);
  });
}

}  // namespace
