// Sizing decisions shared by the schedulers, in plain C++ so host tests can check them:
// how many tasks of a type a block runs, how a per-type worker kernel's block is shaped,
// and how many worker blocks the controller launches for a queue.
#pragma once

#include <cstddef>

#include "runtime/portable.hpp"

namespace apiary::sched {

using apiary::align16;

// Tasks of worker size `threads` that a block of `block_threads` threads runs at once:
// the block splits into groups of `threads`; a multi-warp task needs a named barrier of
// its own (ids 1..15; 0 is the block's), so at most 15 of those.
constexpr int batch_size(int threads, int block_threads) {
  const int fit = block_threads / threads;
  return threads >= 64 && fit > 15 ? 15 : fit;
}

// The block of the per-type worker kernels (timesliced, controller): as many tasks as
// fill 256 threads (one task from worker size 256 up), and exactly that many threads,
// so no thread idles (worker size 96: 2 tasks in 192 threads, not 256).
template <class T>
struct WorkerShape {
  using Item = typename T::Item;
  static constexpr int batch = T::threads >= 256 ? 1 : batch_size(T::threads, 256);
  static constexpr int block_threads = batch * T::threads;
  static constexpr int warps = (block_threads + 31) / 32;
  static constexpr std::size_t stage_bytes =
      align16(static_cast<std::size_t>(batch) * sizeof(Item)) > 16 ? align16(static_cast<std::size_t>(batch) * sizeof(Item)) : 16;
  static constexpr std::size_t shared_bytes =
      stage_bytes + static_cast<std::size_t>(batch) * align16(static_cast<std::size_t>(T::shared_bytes));
};

// Worker blocks the controller launches for a queue with `ready` unclaimed tasks, given
// `not_started` blocks of its worker already launched that have not yet made their
// first claim (each will claim a batch) and `in_flight` launched blocks in all: one block
// per full batch beyond what the not-started blocks will take; a last partial batch
// only when no block of the type is in flight (a running block keeps claiming while
// its queue has work, so it would take those tasks; once it has left, they get a block).
APIARY_HD constexpr long long plan_blocks(long long ready, long long not_started, long long in_flight,
                                          long long batch) {
  if (ready <= 0 || batch <= 0) return 0;
  const long long uncovered = ready - not_started * batch;
  if (uncovered <= 0) return 0;
  const long long full = uncovered / batch;
  if (full > 0) return full;
  return in_flight == 0 ? 1 : 0;
}

// Caps a launch of `blocks` blocks of `warps_per_block` warps so that the warps in flight
// stay within `warp_limit`. One block is always allowed when nothing is in flight, so a
// limit below one block cannot stall a run.
APIARY_HD constexpr long long cap_blocks(long long blocks, long long warps_per_block, long long warps_in_flight,
                                         long long warp_limit) {
  if (blocks <= 0 || warps_per_block <= 0) return 0;
  const long long room = warp_limit > warps_in_flight ? (warp_limit - warps_in_flight) / warps_per_block : 0;
  if (room >= blocks) return blocks;
  if (room > 0) return room;
  return warps_in_flight == 0 ? 1 : 0;
}

// The controller's warp limit: 1.5 times the warps the device holds at once, so that a
// queue of launched blocks waits behind the resident ones and an SM that frees up finds
// work at once, without launching far more than can run.
constexpr long long controller_warp_limit(int multiprocessors, int max_threads_per_multiprocessor) {
  return static_cast<long long>(multiprocessors) * max_threads_per_multiprocessor * 3 / 2 / 32;
}

// The grid the timesliced scheduler launches for `ready` tasks: one block per batch.
constexpr long long timesliced_grid(long long ready, long long batch) {
  return ready <= 0 || batch <= 0 ? 0 : (ready + batch - 1) / batch;
}

}  // namespace apiary::sched
