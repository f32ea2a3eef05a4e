// The GPU RCM against the serial reference sparse::rcm: identical permutations and start
// nodes on hand-made, generated and shared matrices, with one- and two-pass level sorts
// and from given roots; the cuSOLVER baseline gives a permutation. Skips without a GPU.
// The `cub` variant runs no program on the runtime, so these tests are not
// parameterized over the schedulers.
#include <gtest/gtest.h>

#include <span>

#include "sparse/analysis.hpp"
#include "tasks/rcm/cusolver_rcm.hpp"
#include "tasks/rcm/rcm_gpu.hpp"
#include "tests/gpu_test.hpp"
#include "tests/tasks/rcm/rcm_cases.hpp"
#include "tests/tasks/rcm/rcm_check.hpp"

namespace apiary::rcm {
namespace {

using testing::Case;

class RcmGpu : public ::testing::Test {
 protected:
  void SetUp() override { APIARY_REQUIRE_GPU(); }
};

void check_gpu(const Case& c, bool two_pass, bool from_smallest) {
  const sparse::Csr<double> sym = testing::symmetric_pattern(c.a);
  RcmGpuOptions o;
  o.force_two_pass_sort = two_pass;
  std::string name = c.name + (two_pass ? " (two-pass)" : "");
  sparse::RcmResult ref;
  if (from_smallest) {
    o.start_nodes = testing::smallest_vertices(sym);
    ref = sparse::rcm_from(sym, std::span<const sparse::index_t>(o.start_nodes));
    name += " from smallest vertices";
  } else {
    ref = sparse::rcm(sym);
  }
  const RcmGpuResult r = rcm_gpu(c.a, RcmVariant::cub, Scheduler::megakernel, o);
  EXPECT_EQ(r.symmetrized, !sparse::is_pattern_symmetric(c.a)) << name;
  EXPECT_GT(r.device_bytes, 0u) << name;
  EXPECT_GE(r.total_ms, 0.0) << name;
  testing::expect_same_as_reference(r, ref, sym, name);
}

TEST_F(RcmGpu, MatchesSerialOnSmallGraphs) {
  for (const Case& c : testing::small_cases()) check_gpu(c, false, false);
}

TEST_F(RcmGpu, MatchesSerialOnSmallGraphsWithTwoPassSort) {
  for (const Case& c : testing::small_cases()) check_gpu(c, true, false);
}

TEST_F(RcmGpu, MatchesRcmFromGivenRoots) {
  for (const Case& c : testing::small_cases()) check_gpu(c, false, true);
}

TEST_F(RcmGpu, MatchesSerialOnLargerGraphs) {
  for (const Case& c : testing::large_cases()) check_gpu(c, false, false);
  check_gpu(testing::large_cases().front(), true, false);
}

TEST_F(RcmGpu, MatchesSerialOnSharedMatrices) {
  const auto cases = testing::shared_cases();
  if (cases.empty()) GTEST_SKIP() << "no matrices in " << APIARY_SHARED_MATRICES;
  for (const Case& c : cases) check_gpu(c, false, false);
}

TEST_F(RcmGpu, RepeatedRunsAreIdentical) {
  const Case c = testing::large_cases()[2];
  const RcmGpuResult first = rcm_gpu(c.a);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(rcm_gpu(c.a).perm, first.perm);
}

TEST_F(RcmGpu, CusolverBaselineGivesAPermutation) {
  for (const Case& c : testing::small_cases()) {
    const CusolverRcmResult r = cusolver_rcm(c.a);
    EXPECT_TRUE(sparse::is_permutation(r.perm)) << c.name;
  }
}

}  // namespace
}  // namespace apiary::rcm
