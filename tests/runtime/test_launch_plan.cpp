// The sizing rules of the schedulers that launch kernels (schedulers/launch_plan.hpp),
// checked on the host: worker block shapes per worker size, the timesliced grid, and the
// controller's choice of how many blocks to launch for a queue.
#include <gtest/gtest.h>

#include <algorithm>

#include "runtime/scheduler.hpp"
#include "schedulers/launch_plan.hpp"

namespace apiary::sched {
namespace {

template <int W, int Shared = 0, class ItemT = int>
struct Task {
  using Item = ItemT;
  static constexpr int threads = W;
  static constexpr int shared_bytes = Shared;
};

TEST(WorkerShape, SmallWorkersFillTwoHundredFiftySixThreads) {
  static_assert(WorkerShape<Task<1>>::batch == 256 && WorkerShape<Task<1>>::block_threads == 256);
  static_assert(WorkerShape<Task<4>>::batch == 64 && WorkerShape<Task<4>>::block_threads == 256);
  static_assert(WorkerShape<Task<16>>::batch == 16 && WorkerShape<Task<16>>::block_threads == 256);
  static_assert(WorkerShape<Task<32>>::batch == 8 && WorkerShape<Task<32>>::warps == 8);
  static_assert(WorkerShape<Task<64>>::batch == 4 && WorkerShape<Task<64>>::block_threads == 256);
  static_assert(WorkerShape<Task<128>>::batch == 2 && WorkerShape<Task<128>>::block_threads == 256);
}

TEST(WorkerShape, OddWarpCountsGetNoIdleThreads) {
  static_assert(WorkerShape<Task<96>>::batch == 2 && WorkerShape<Task<96>>::block_threads == 192);
  static_assert(WorkerShape<Task<96>>::warps == 6);
  static_assert(WorkerShape<Task<160>>::batch == 1 && WorkerShape<Task<160>>::block_threads == 160);
}

TEST(WorkerShape, LargeWorkersRunOneTaskPerBlock) {
  static_assert(WorkerShape<Task<256>>::batch == 1 && WorkerShape<Task<256>>::block_threads == 256);
  static_assert(WorkerShape<Task<512>>::batch == 1 && WorkerShape<Task<512>>::block_threads == 512);
  static_assert(WorkerShape<Task<1024>>::batch == 1 && WorkerShape<Task<1024>>::warps == 32);
}

TEST(WorkerShape, SharedMemoryIsStagedItemsPlusAlignedTaskMemory) {
  struct Big {
    double x[5];
  };
  using T = Task<32, 100, Big>;  // 8 tasks, 40-byte items, 100 -> 112 bytes each
  static_assert(WorkerShape<T>::stage_bytes == 320);
  static_assert(WorkerShape<T>::shared_bytes == 320 + 8 * 112);
  static_assert(WorkerShape<Task<256, 0, char>>::stage_bytes == 16);  // at least 16: alignment of what follows
}

TEST(BatchSize, MultiWarpTasksAreLimitedToFifteenNamedBarriers) {
  EXPECT_EQ(batch_size(64, 1024), 15);
  EXPECT_EQ(batch_size(32, 1024), 32);  // warp tasks need no named barrier
  EXPECT_EQ(batch_size(1, 256), 256);
  EXPECT_EQ(batch_size(96, 256), 2);
}

TEST(TimeslicedGrid, OneBlockPerBatchRoundedUp) {
  EXPECT_EQ(timesliced_grid(0, 8), 0);
  EXPECT_EQ(timesliced_grid(-3, 8), 0);
  EXPECT_EQ(timesliced_grid(1, 8), 1);
  EXPECT_EQ(timesliced_grid(8, 8), 1);
  EXPECT_EQ(timesliced_grid(9, 8), 2);
  EXPECT_EQ(timesliced_grid(1 << 24, 256), 1 << 16);
}

TEST(ControllerPlan, FullBatchesBeyondWhatNotStartedBlocksWillClaim) {
  EXPECT_EQ(plan_blocks(0, 0, 0, 8), 0);
  EXPECT_EQ(plan_blocks(64, 0, 0, 8), 8);
  EXPECT_EQ(plan_blocks(64, 3, 3, 8), 5);   // 3 launched blocks will take 24
  EXPECT_EQ(plan_blocks(64, 8, 8, 8), 0);   // all covered
  EXPECT_EQ(plan_blocks(70, 0, 5, 8), 8);   // running blocks do not count as cover: 8 full, the rest waits
}

TEST(ControllerPlan, PartialBatchOnlyWhenNoBlockOfTheTypeIsInFlight) {
  EXPECT_EQ(plan_blocks(3, 0, 0, 8), 1);  // nothing would take them otherwise
  EXPECT_EQ(plan_blocks(3, 0, 2, 8), 0);  // a running block keeps claiming: it will
  EXPECT_EQ(plan_blocks(3, 1, 1, 8), 0);  // a block about to start will
}

TEST(ControllerPlan, WarpBudgetCapsLaunchesButNeverStallsAnIdleDevice) {
  EXPECT_EQ(cap_blocks(10, 8, 0, 1000), 10);
  EXPECT_EQ(cap_blocks(10, 8, 960, 1000), 5);
  EXPECT_EQ(cap_blocks(10, 8, 1000, 1000), 0);
  EXPECT_EQ(cap_blocks(10, 8, 2000, 1000), 0);
  EXPECT_EQ(cap_blocks(10, 32, 0, 16), 1);  // a limit below one block still lets one run
  EXPECT_EQ(cap_blocks(0, 8, 0, 1000), 0);
}

TEST(ControllerPlan, WarpLimitIsOneAndAHalfTimesTheResidentWarps) {
  EXPECT_EQ(controller_warp_limit(132, 2048), 132LL * 64 * 3 / 2);  // H100/H200: 12672 warps
}

TEST(Schedulers, MegakernelAndTimeslicedAlwaysControllerWhenBuilt) {
  const auto s = available_schedulers();
  auto has = [&](Scheduler x) { return std::find(s.begin(), s.end(), x) != s.end(); };
  EXPECT_TRUE(has(Scheduler::megakernel));
  EXPECT_TRUE(has(Scheduler::timesliced));
#if defined(APIARY_WITH_CONTROLLER) && APIARY_WITH_CONTROLLER
  EXPECT_TRUE(has(Scheduler::controller));
#else
  EXPECT_FALSE(has(Scheduler::controller));
#endif
}

}  // namespace
}  // namespace apiary::sched
