// The device-side state of one run, shared by all schedulers.
#pragma once

#include <cstdint>

#include "runtime/queue.hpp"

namespace apiary {

inline constexpr int kMaxReportedQueues = 64;

enum class ErrorCode : int {
  none = 0,
  queue_overflow = 1,
  waiting_overflow = 2,
  watchdog = 3,
  phase_order = 4,        // work entered a finished phase of a non-cyclic program
  bad_dependency = 5,     // negative predecessor count
  launch_failed = 6,      // a device-side kernel launch failed (controller); RunControl::error_detail says why
};

// Run-wide counters. `active` counts queued + running tasks: when it reads 0 nothing
// can create work any more, which is how every scheduler detects the end of a run.
// Four groups, each on its own 256-byte block (kCounterSpacing, runtime/queue.hpp): the
// flags, which every idle block polls; the phase word, which every claim of a phased
// program updates; the task counts, which the end of every batch updates; the progress
// stamp, which the end of every batch writes, with the count of blocks that left. All in one
// block (and the queues' counters in one), a megakernel ran 60% as many trivial tasks per
// second (H200, session 18).
struct RunControl {
  // A statistic first, so that `abort` is not at offset 0: there, the Jacobi autonomous
  // megakernel took 84 registers instead of 80 (2 blocks of 256 threads per SM, not 3).
  unsigned long long rounds = 0;  // controller: generations of the controller kernel (statistics)
  int abort = 0;             // set on error: every loop and spin polls it
  int error = 0;             // ErrorCode of the first error
  int error_queue = -1;      // queue the error concerns (-1: none, e.g. the controller's own launch)
  int error_detail = 0;      // launch_failed: the cudaError_t of the failed launch
  int done = 0;              // the run is over; timesliced and controller set it only once no worker runs
  // Current phase (low 32 bits; kSwitching while it changes) and, in the high 32 bits,
  // the number of blocks inside a claim from it. One word, so that registering a claim
  // and reading the phase is a single atomic, and a switch is a CAS that only succeeds
  // when no claim is in flight.
  alignas(kCounterSpacing) unsigned long long phase_word = 0;
  alignas(kCounterSpacing) long long active = 0;
  long long waiting = 0;
  long long peak_waiting = 0;
  unsigned long long phase_switches = 0;
  alignas(kCounterSpacing) unsigned long long last_progress_ns = 0;
  // Megakernel blocks that have left: the last one writes the words back. No block counts
  // itself in at its start, where every block's RMW on one word stood before its first
  // claim: the blocks still running are the grid less these (watchdog_fire).
  int exited_blocks = 0;
  unsigned long long launches = 0;  // controller: worker kernels launched from the device (statistics)
  int max_grid = 0;                 // controller: largest worker grid launched (statistics)
  // Megakernel: the device clock at block 0's start and at the last block's exit, the
  // run's time without event records (RunOptions::event_timer).
  unsigned long long start_ns = 0;
  unsigned long long end_ns = 0;
};
static_assert(sizeof(RunControl) == 4 * kCounterSpacing, "RunControl: four groups of words, a block each");

inline constexpr int kSwitching = -1;
inline constexpr unsigned long long kClaimToken = 1ull << 32;

constexpr int phase_of_word(unsigned long long w) { return static_cast<int>(static_cast<unsigned>(w)); }
constexpr unsigned long long phase_word(int phase, unsigned long long tokens_part = 0) {
  return tokens_part | static_cast<unsigned>(phase);
}

// Written by the device into pinned host memory, so it survives a trapped kernel.
struct WatchdogReport {
  int fired = 0;
  int phase = 0;
  long long active = 0;
  long long waiting = 0;
  unsigned long long idle_ns = 0;
  int queue_count = 0;
  unsigned long long fill[kMaxReportedQueues] = {};
};

struct TraceRecord {
  std::uint32_t queue = 0;
  std::uint32_t sm = 0;
  unsigned long long start_ns = 0;
  unsigned long long end_ns = 0;
};

}  // namespace apiary
