// Task barriers in partial batches: a block of BlockThreads threads runs `count` tasks of
// W threads while its other threads wait at the scheduler's block barrier, as in every
// scheduler's batch (schedulers/execute.cuh). Each task checks across its own barrier
// that its neighbour's write is visible, several times, so a barrier that does not wait,
// or one shared with another task, shows up as a mismatch.
//
// This kernel is also the reproducer of a compute-sanitizer racecheck false positive
// (docs/schedulers.md#under-compute-sanitizer): with multi-warp tasks on named barriers and threads of
// the block that sit the batch out, racecheck (2025.3) reports RAW hazards between
// thread 0's write of `s_count` and the idle threads' read of it, although the two are
// ordered by barrier 0, which every thread passes; the value checks here pass.
#include <gtest/gtest.h>

#include "runtime/device_buffer.hpp"
#include "schedulers/execute.cuh"
#include "tests/gpu_test.hpp"

namespace apiary {
namespace {

constexpr int kRounds = 24;
constexpr int kBlocks = 8;

// Tasks in round r of block b: 1 .. groups, never always the same.
__host__ __device__ inline int tasks_in_round(int r, int b, int groups) { return 1 + (r * 7 + b * 3) % groups; }

template <int W, int BlockThreads>
__global__ void __launch_bounds__(BlockThreads) partial_batches(unsigned* errors, unsigned* runs) {
  constexpr int groups = BlockThreads / W;
  __shared__ int s_count;
  __shared__ unsigned s[BlockThreads];
  for (int r = 0; r < kRounds; ++r) {
    if (threadIdx.x == 0) s_count = tasks_in_round(r, static_cast<int>(blockIdx.x), groups);
    sched::block_barrier();
    const unsigned group = threadIdx.x / W;
    if (group < static_cast<unsigned>(s_count)) {
      const TaskBarrier<W> barrier = sched::task_barrier<W, BlockThreads>(group);
      const unsigned rank = threadIdx.x % W, next = (rank + 1) % W;
      unsigned* mine = s + group * W;
      for (unsigned k = 0; k < 3; ++k) {
        mine[rank] = (r * 4 + k) * 4096u + group * W + rank;
        barrier.sync();
        if (mine[next] != (r * 4 + k) * 4096u + group * W + next) atomicAdd(errors, 1u);
        barrier.sync();
      }
      if (rank == 0) atomicAdd(runs, 1u);
    }
    sched::block_barrier();
  }
}

template <int W, int BlockThreads>
void check_partial_batches() {
  DeviceBuffer<unsigned> errors(1), runs(1);
  errors.fill_zero();
  runs.fill_zero();
  partial_batches<W, BlockThreads><<<kBlocks, BlockThreads>>>(errors.data(), runs.data());
  APIARY_CUDA_CHECK_LAUNCH();
  APIARY_CUDA_CHECK(cudaDeviceSynchronize());
  unsigned expected = 0;
  for (int b = 0; b < kBlocks; ++b)
    for (int r = 0; r < kRounds; ++r) expected += tasks_in_round(r, b, BlockThreads / W);
  EXPECT_EQ(errors.to_host()[0], 0u) << "worker size " << W << " in blocks of " << BlockThreads;
  EXPECT_EQ(runs.to_host()[0], expected);
}

TEST(Barriers, SubWarpTasksInPartialBatches) {
  APIARY_REQUIRE_GPU();
  check_partial_batches<4, 256>();
  check_partial_batches<16, 256>();
}

TEST(Barriers, MultiWarpTasksInPartialBatches) {
  APIARY_REQUIRE_GPU();
  check_partial_batches<64, 256>();
  check_partial_batches<96, 1024>();
  check_partial_batches<256, 1024>();
}

TEST(Barriers, FullBlockTasks) {
  APIARY_REQUIRE_GPU();
  check_partial_batches<256, 256>();
  check_partial_batches<1024, 1024>();
}

}  // namespace
}  // namespace apiary
