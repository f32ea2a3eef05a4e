// The GPU RCM against the serial reference sparse::rcm: identical permutations and start
// nodes on hand-made, generated and shared matrices, from the pseudo-peripheral roots and
// from given ones. `cub` runs once, with one- and two-pass level sorts; `tasks` runs under
// every scheduler of the build, with the default tile and with tiny tiles that send small
// graphs through the wide-level path (expansion tasks, chunk sorts, several merge
// passes). The cuSOLVER baseline gives a permutation. Skips without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "runtime/scheduler.hpp"
#include "sparse/analysis.hpp"
#include "tasks/rcm/cusolver_rcm.hpp"
#include "tasks/rcm/rcm_gpu.hpp"
#include "tests/gpu_test.hpp"
#include "tests/tasks/rcm/rcm_cases.hpp"
#include "tests/tasks/rcm/rcm_check.hpp"

namespace apiary::rcm {
namespace {

using testing::Case;
using Param = std::tuple<RcmVariant, Scheduler>;

RcmGpuOptions with_tile(int tile) {
  RcmGpuOptions o;
  o.task_tile = tile;
  return o;
}

class RcmGpu : public ::testing::TestWithParam<Param> {
 protected:
  void SetUp() override { APIARY_REQUIRE_GPU(); }
  RcmVariant variant() const { return std::get<0>(GetParam()); }
  Scheduler scheduler() const { return std::get<1>(GetParam()); }
  RcmGpuResult run(const sparse::Csr<double>& a, const RcmGpuOptions& o = {}) const {
    return rcm_gpu(a, variant(), scheduler(), o);
  }

  void check(const Case& c, RcmGpuOptions o, bool from_smallest) const {
    const sparse::Csr<double> sym = testing::symmetric_pattern(c.a);
    std::string name = c.name;
    if (o.force_two_pass_sort) name += " (two-pass)";
    if (o.task_tile != 0) {
      name += " (tile ";
      name += std::to_string(o.task_tile);
      name += ')';
    }
    if (!o.reuse_levels) name += " (claims only)";
    if (!o.bfs_bitmap) name += " (no bitmap)";
    if (!o.padded_rows) name += " (no padding)";
    sparse::RcmResult ref;
    if (from_smallest) {
      o.start_nodes = testing::smallest_vertices(sym);
      ref = sparse::rcm_from(sym, std::span<const sparse::index_t>(o.start_nodes));
      name += " from smallest vertices";
    } else {
      ref = sparse::rcm(sym);
    }
    const RcmGpuResult r = run(c.a, o);
    EXPECT_EQ(r.symmetrized, !sparse::is_pattern_symmetric(c.a)) << name;
    EXPECT_GT(r.device_bytes, 0u) << name;
    EXPECT_GE(r.total_ms, 0.0) << name;
    if (variant() == RcmVariant::tasks) {
      // One run per search: every start-node BFS plus every Cuthill–McKee search of a
      // component that is not a single vertex, less those ordered during the start-node
      // search's last BFS, plus one for each search whose level path gave up. Without
      // given roots, every such search starts from the root of one of its component's
      // last two BFS and takes the level path when it may.
      const int searched = r.components - r.isolated;
      EXPECT_EQ(r.runs, r.bfs_count + searched - r.cm_overlapped + r.cm_fallbacks) << name;
      EXPECT_GE(r.tasks, static_cast<std::uint64_t>(r.runs)) << name;
      EXPECT_EQ(r.cm_from_levels + r.cm_fallbacks, from_smallest || !o.reuse_levels ? 0 : searched) << name;
      EXPECT_LE(r.cm_overlapped, r.cm_from_levels + r.cm_fallbacks) << name;
      EXPECT_LE(r.bitmap_bfs, o.bfs_bitmap ? r.bfs_count : 0) << name;
      if (!o.bfs_bitmap || !o.padded_rows) {
        EXPECT_EQ(r.padded_slots, 0) << name;
      }
    }
    testing::expect_same_as_reference(r, ref, sym, name);
  }
};

TEST_P(RcmGpu, MatchesSerialOnSmallGraphs) {
  for (const Case& c : testing::small_cases()) check(c, {}, false);
}

TEST_P(RcmGpu, MatchesRcmFromGivenRoots) {
  for (const Case& c : testing::small_cases()) check(c, {}, true);
}

TEST_P(RcmGpu, MatchesSerialOnLargerGraphs) {
  for (const Case& c : testing::large_cases()) check(c, {}, false);
}

TEST_P(RcmGpu, MatchesSerialOnSharedMatrices) {
  const auto cases = testing::shared_cases();
  if (cases.empty()) GTEST_SKIP() << "no matrices in " << APIARY_SHARED_MATRICES;
  for (const Case& c : cases) check(c, {}, false);
}

// cub: two radix passes instead of one packed key. tasks: tiles of 1, 3 and 32 positions,
// so that levels of two or more vertices take the wide paths (of the claims search: the
// merge passes run many times with partial last tiles, and a tile may hold fewer positions
// than a task has threads; of the level path: arrays in global memory), each with the
// Cuthill–McKee search from the BFS's levels and with claims only.
TEST_P(RcmGpu, MatchesSerialOnTheOtherLevelPaths) {
  std::vector<RcmGpuOptions> options;
  if (variant() == RcmVariant::cub) {
    options.emplace_back().force_two_pass_sort = true;
  } else {
    for (int tile : {1, 3, 32}) {
      options.push_back(with_tile(tile));
      options.push_back(with_tile(tile));
      options.back().reuse_levels = false;
    }
  }
  for (const RcmGpuOptions& o : options) {
    for (const Case& c : testing::small_cases()) check(c, o, false);
    check(testing::large_cases()[1], o, false);
  }
  if (variant() == RcmVariant::tasks) {
    // The widest levels (the star's leaves, the random graph's middle) with a small tile:
    // merge passes over many runs.
    for (std::size_t i : {2u, 3u}) {
      RcmGpuOptions o = with_tile(64);
      check(testing::large_cases()[i], o, false);
      o.reuse_levels = false;
      check(testing::large_cases()[i], o, false);
    }
  }
}

// The level path of `tasks` on what it hands back or splits: the star's 4999 leaves are
// one wide level with one parent (it gives up, and the claims search orders it); a ladder
// 2 x 10000 with a tile of 1 has 10000 two-vertex levels, so a Rank task stops after its
// 4096 levels with a level kept in global memory and its successor goes on from there;
// the default tile runs the same ladder with the levels in shared memory.
TEST_P(RcmGpu, LevelPathGivesUpOrGoesOnWhereItMust) {
  if (variant() != RcmVariant::tasks) GTEST_SKIP() << "the level path is the tasks variant's";
  const Case star = testing::large_cases()[3];
  const RcmGpuResult r = run(star.a);
  EXPECT_EQ(r.cm_from_levels, 0);
  EXPECT_EQ(r.cm_fallbacks, 1);
  check(star, {}, false);
  const Case ladder{"ladder 2 x 10000", sparse::poisson2d<double>(2, 10000)};
  check(ladder, with_tile(1), false);
  check(ladder, {}, false);
}

// A scrambled grid: the BFS from a corner, then from the opposite corner, no deeper; the
// first corner's levels are ordered by a Rank task while the second BFS runs, so the
// Cuthill–McKee order needs no run of its own.
TEST_P(RcmGpu, LevelsAreOrderedDuringTheLastSearch) {
  if (variant() != RcmVariant::tasks) GTEST_SKIP() << "the level path is the tasks variant's";
  const Case grid = testing::large_cases()[0];
  const RcmGpuResult r = run(grid.a);
  EXPECT_EQ(r.bfs_count, 2);
  EXPECT_EQ(r.cm_overlapped, 1);
  EXPECT_EQ(r.cm_from_levels, 1);
  EXPECT_EQ(r.runs, 2);
  check(grid, {}, false);
  check(grid, with_tile(64), false);  // the wide levels' arrays in global memory
}

// Rank's two paths (rcm_tasks.cu): the grid's 599 levels are at most 300 wide with at
// most two children per parent, so all 598 that Rank orders take the fast path; with a
// tile of 64 the wider ones take the general path. The star's 148 leaves are children of
// one parent, more than a fast level places: that level takes the general path (a merge
// sort), the levels before and after it the fast one. The orders themselves are checked
// by LevelsAreOrderedDuringTheLastSearch and MatchesSerialOnSmallGraphs.
TEST_P(RcmGpu, RankTakesTheFastPathWhereItCan) {
  if (variant() != RcmVariant::tasks) GTEST_SKIP() << "Rank is the tasks variant's";
  const Case grid = testing::large_cases()[0];
  const RcmGpuResult r = run(grid.a);
  EXPECT_EQ(r.rank_fast_levels, 598);
  EXPECT_EQ(r.rank_general_levels, 0);
  const RcmGpuResult narrow = run(grid.a, with_tile(64));
  EXPECT_GT(narrow.rank_fast_levels, 0);
  EXPECT_GT(narrow.rank_general_levels, 0);
  EXPECT_EQ(narrow.rank_fast_levels + narrow.rank_general_levels, 598);
  const auto small = testing::small_cases();
  const auto star =
      std::find_if(small.begin(), small.end(), [](const Case& c) { return c.name == "star 150 with a tail"; });
  ASSERT_NE(star, small.end());
  const RcmGpuResult s = run(star->a);
  EXPECT_GE(s.rank_fast_levels, 1);
  EXPECT_GE(s.rank_general_levels, 1);
}

// The BFS's visited bitmap in shared memory (tasks, Narrow<true>): the grid's levels are at
// most 300 wide, so both its BFS run in the bitmap's program, and deep into their 599
// levels they claim in the bitmap; the random graph's levels are wider than 1024 on
// average, so the BFS after the first of its large component does not. Every larger graph
// gives the same order with the bitmap off, where every BFS claims in global memory.
TEST_P(RcmGpu, BfsTakesTheBitmapWhereTheSearchIsDeep) {
  if (variant() != RcmVariant::tasks) GTEST_SKIP() << "the bitmap is the tasks variant's";
  const auto cases = testing::large_cases();
  const RcmGpuResult grid = run(cases[0].a);
  EXPECT_EQ(grid.bitmap_bfs, 2);
  EXPECT_EQ(grid.bfs_count, 2);
  const RcmGpuResult random = run(cases[2].a);
  EXPECT_GT(random.bitmap_bfs, 0);
  EXPECT_LT(random.bitmap_bfs, random.bfs_count);
  RcmGpuOptions off;
  off.bfs_bitmap = false;
  for (const Case& c : cases) check(c, off, false);
}

// The padded rows of the bitmap's BFS levels (tasks, expand_padded): made with 4 slots for
// the 2D grid and the path (degrees up to 4 and 2), 8 for the 3D grid (6), none for the
// random graph and the stars (degrees above 8). The path's 20000 levels go through many
// Narrow tasks, each switching the bitmap on again after 16 levels. Every larger graph
// gives the same order without them.
TEST_P(RcmGpu, BfsReadsPaddedRowsWhereTheDegreeIsSmall) {
  if (variant() != RcmVariant::tasks) GTEST_SKIP() << "the padded rows are the tasks variant's";
  const auto cases = testing::large_cases();
  const int expected[] = {4, 8, 0, 0, 4, 0};
  ASSERT_EQ(cases.size(), std::size(expected));
  for (std::size_t i = 0; i < cases.size(); ++i)
    EXPECT_EQ(run(cases[i].a).padded_slots, expected[i]) << cases[i].name;  // orders: MatchesSerialOnLargerGraphs
  RcmGpuOptions off;
  off.padded_rows = false;
  for (const Case& c : cases) check(c, off, false);
}

TEST_P(RcmGpu, RepeatedRunsAreIdentical) {
  const Case c = testing::large_cases()[2];
  const RcmGpuResult first = run(c.a);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(run(c.a).perm, first.perm);
}

TEST(RcmGpuBaseline, CusolverGivesAPermutation) {
  APIARY_REQUIRE_GPU();
  for (const Case& c : testing::small_cases()) {
    const CusolverRcmResult r = cusolver_rcm(c.a);
    EXPECT_TRUE(sparse::is_permutation(r.perm)) << c.name;
  }
}

// `cub` once (it runs no task program), `tasks` under every scheduler of the build.
std::vector<Param> variants_and_schedulers() {
  std::vector<Param> out{{RcmVariant::cub, Scheduler::megakernel}};
  for (Scheduler s : available_schedulers()) out.emplace_back(RcmVariant::tasks, s);
  return out;
}

std::string param_name(const ::testing::TestParamInfo<Param>& info) {
  const auto [v, s] = info.param;
  std::string name(to_string(v));
  if (v == RcmVariant::tasks) {
    name += '_';
    name += to_string(s);
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(VariantsAndSchedulers, RcmGpu, ::testing::ValuesIn(variants_and_schedulers()), param_name);

}  // namespace
}  // namespace apiary::rcm
