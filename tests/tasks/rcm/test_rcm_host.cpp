// Host tests of the GPU RCM's design: the level sort keys, and the host emulation of the
// level algorithm (same driver, same keys, scrambled claim order) against sparse::rcm.
// Also the input errors of rcm_gpu, which come before any GPU use.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>

#include "runtime/device.hpp"
#include "tasks/rcm/level_keys.hpp"
#include "tasks/rcm/rcm_gpu.hpp"
#include "tests/tasks/rcm/rcm_cases.hpp"
#include "tests/tasks/rcm/rcm_check.hpp"

namespace apiary::rcm {
namespace {

using testing::Case;

TEST(RcmLevelKeys, BitsFor) {
  EXPECT_EQ(bits_for(0), 0);
  EXPECT_EQ(bits_for(1), 1);
  EXPECT_EQ(bits_for(2), 2);
  EXPECT_EQ(bits_for(255), 8);
  EXPECT_EQ(bits_for(256), 9);
  EXPECT_EQ(bits_for(0x7fffffff), 31);
}

TEST(RcmLevelKeys, LayoutWidthsAndPassCount) {
  const LevelKeyLayout k = level_key_layout(1000, 6, 1'000'000);
  EXPECT_EQ(k.position_bits, 10);
  EXPECT_EQ(k.degree_bits, 3);
  EXPECT_EQ(k.index_bits, 20);
  EXPECT_TRUE(k.single_pass);
  EXPECT_EQ(k.key_bits(), 33);
  const LevelKeyLayout one = level_key_layout(1, 2, 2);
  EXPECT_EQ(one.position_bits, 0);
  EXPECT_TRUE(one.single_pass);
  const LevelKeyLayout wide = level_key_layout(1 << 30, 1 << 30, 0x7fffffff);
  EXPECT_FALSE(wide.single_pass);
  EXPECT_EQ(wide.key_bits(), 30 + 31);  // positions 0 .. 2^30 - 1, degrees 0 .. 2^30
  EXPECT_FALSE(level_key_layout(1000, 6, 1'000'000, true).single_pass);
}

TEST(RcmLevelKeys, PackedOrderIsTupleOrder) {
  const LevelKeyLayout k = level_key_layout(5000, 70, 3'000'000);
  ASSERT_TRUE(k.single_pass);
  std::mt19937_64 rng(5);
  std::uniform_int_distribution<std::uint32_t> pos(0, 4999), deg(0, 70), idx(0, 2'999'999);
  for (int t = 0; t < 20000; ++t) {
    const std::uint32_t p1 = pos(rng) % 4, d1 = deg(rng) % 3, v1 = idx(rng);
    const std::uint32_t p2 = pos(rng) % 4, d2 = deg(rng) % 3, v2 = idx(rng);
    const std::uint64_t a = k.pack(p1, d1, v1), b = k.pack(p2, d2, v2);
    EXPECT_EQ(a < b, std::tie(p1, d1, v1) < std::tie(p2, d2, v2));
    EXPECT_EQ(k.vertex_of(a), v1);
    EXPECT_LT(a, std::uint64_t{1} << k.key_bits());
  }
  // Extremes of each field stay inside their bits.
  EXPECT_EQ(k.vertex_of(k.pack(4999, 70, 2'999'999)), 2'999'999u);
  EXPECT_LT(k.pack(4999, 70, 2'999'999), std::uint64_t{1} << k.key_bits());
  EXPECT_LT(k.pack_parent_degree(4999, 70), std::uint64_t{1} << (k.position_bits + k.degree_bits));
}

void check_emulation(const Case& c, bool two_pass) {
  const sparse::Csr<double> sym = testing::symmetric_pattern(c.a);
  const sparse::RcmResult ref = sparse::rcm(sym);
  RcmGpuOptions o;
  o.force_two_pass_sort = two_pass;
  const RcmGpuResult r = rcm_level_emulation(c.a, o);
  EXPECT_EQ(r.symmetrized, !sparse::is_pattern_symmetric(c.a)) << c.name;
  testing::expect_same_as_reference(r, ref, sym, c.name + (two_pass ? " (two-pass)" : ""));
  // From other roots: the smallest vertex of each component.
  o.start_nodes = testing::smallest_vertices(sym);
  const RcmGpuResult from = rcm_level_emulation(c.a, o);
  testing::expect_same_as_reference(from, sparse::rcm_from(sym, std::span<const sparse::index_t>(o.start_nodes)), sym,
                                    c.name + " from smallest vertices");
}

TEST(RcmEmulation, MatchesSerialOnSmallGraphs) {
  for (const Case& c : testing::small_cases()) {
    check_emulation(c, false);
    check_emulation(c, true);
  }
}

TEST(RcmEmulation, MatchesSerialOnLargerGraphs) {
  for (const Case& c : testing::large_cases()) check_emulation(c, false);
}

TEST(RcmEmulation, MatchesSerialOnSharedMatrices) {
  const auto cases = testing::shared_cases();
  if (cases.empty()) GTEST_SKIP() << "no matrices in " << APIARY_SHARED_MATRICES;
  for (const Case& c : cases) check_emulation(c, false);
}

TEST(RcmEmulation, CountsComponentsAndIsolatedVertices) {
  const auto a = testing::graph(11, {{1, 2}, {2, 3}, {3, 1}, {5, 8}, {8, 6}, {6, 9}}, {0, 7});
  const RcmGpuResult r = rcm_level_emulation(a);
  EXPECT_EQ(r.components, 6);  // {0} {1,2,3} {4} {5,6,8,9} {7} {10}
  EXPECT_EQ(r.isolated, 4);
  EXPECT_EQ(r.start_nodes.size(), 6u);
}

TEST(RcmEmulation, StartsAMeshFromACorner) {
  // The least-degree vertices of a grid are its corners: the search from one ends at the
  // opposite corner, whose search is no deeper. Two searches, where the smallest vertex
  // of a scrambled grid (inside it) needs three.
  const sparse::Csr<double> g = testing::scrambled(sparse::poisson2d<double>(30, 40), 17);
  const RcmGpuResult r = rcm_level_emulation(g);
  EXPECT_EQ(r.bfs_count, 2);
  EXPECT_EQ(degree_without_loops(g, r.start_nodes.at(0)), 2);
}

TEST(RcmEmulation, EmptyMatrix) {
  const RcmGpuResult r = rcm_level_emulation(sparse::Csr<double>{});
  EXPECT_TRUE(r.perm.empty());
  EXPECT_EQ(r.components, 0);
}

TEST(RcmEmulation, RejectsBadStartNodes) {
  const auto a = testing::graph(6, {{0, 1}, {1, 2}, {3, 4}, {4, 5}});
  RcmGpuOptions o;
  o.start_nodes = {1};  // one root for two components
  EXPECT_THROW(rcm_level_emulation(a, o), std::invalid_argument);
  o.start_nodes = {1, 4, 0};
  EXPECT_THROW(rcm_level_emulation(a, o), std::invalid_argument);
  o.start_nodes = {4, 1};  // the first root lies in the second component
  EXPECT_THROW(rcm_level_emulation(a, o), std::invalid_argument);
  o.start_nodes = {2, 5};
  EXPECT_NO_THROW(rcm_level_emulation(a, o));
}

TEST(RcmGpuInput, RejectsNonSquareBeforeTheGpuCheck) {
  sparse::Csr<double> a;
  a.rows = 2;
  a.cols = 3;
  a.row_ptr = {0, 0, 0};
  EXPECT_THROW(rcm_gpu(a), std::invalid_argument);
  EXPECT_THROW(rcm_level_emulation(a), std::invalid_argument);
}

TEST(RcmGpuInput, RejectsOutOfRangeStartNodeBeforeTheGpuCheck) {
  RcmGpuOptions o;
  o.start_nodes = {7};
  EXPECT_THROW(rcm_gpu(testing::graph(3, {{0, 1}}), RcmVariant::cub, Scheduler::megakernel, o), std::invalid_argument);
}

TEST(RcmGpuInput, RejectsBadTaskTileBeforeTheGpuCheck) {
  for (int tile : {-1, kMaxTaskTile + 1}) {
    RcmGpuOptions o;
    o.task_tile = tile;
    try {
      rcm_gpu(testing::graph(3, {{0, 1}}), RcmVariant::tasks, Scheduler::megakernel, o);
      FAIL() << "expected an error for tile " << tile;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("task_tile must be 1..2048"), std::string::npos) << e.what();
    }
  }
}

TEST(RcmGpuInput, EmptyMatrixNeedsNoGpu) {
  EXPECT_TRUE(rcm_gpu(sparse::Csr<double>{}).perm.empty());
}

TEST(RcmGpuInput, SaysWhenThereIsNoGpu) {
  if (!no_device_reason()) GTEST_SKIP() << "a GPU is present";
  try {
    rcm_gpu(testing::graph(3, {{0, 1}}));
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("no GPU available"), std::string::npos) << e.what();
  }
}

TEST(RcmVariantNames, RoundTrip) {
  for (RcmVariant v : {RcmVariant::cub, RcmVariant::tasks}) EXPECT_EQ(parse_variant(to_string(v)), v);
  EXPECT_FALSE(parse_variant("nope"));
}

}  // namespace
}  // namespace apiary::rcm
