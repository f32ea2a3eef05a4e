// How one run is sized and what it records. Plain C++ so host code can fill it.
#pragma once

#include <cstdint>

namespace apiary {

// Whether this build compiled the traced variant of every scheduler kernel (CMake option
// APIARY_TRACE_KERNELS, on by default). Without it a run with RunOptions::trace is refused.
#ifndef APIARY_TRACE_KERNELS
#define APIARY_TRACE_KERNELS 1
#endif
inline constexpr bool kTraceKernels = APIARY_TRACE_KERNELS != 0;

struct RunOptions {
  std::uint32_t queue_capacity = 1u << 20;   // per task type; rounded up to a power of two
  std::uint32_t waiting_capacity = 1u << 16; // tasks that may wait behind dependencies at once
  bool cyclic = false;                       // after the last phase the first runs again
  bool trace = false;                        // record every task (type, SM, start, end)
  std::uint32_t trace_capacity = 1u << 22;   // records kept when tracing
  double watchdog_seconds = 10.0;            // abort after this long without progress; 0: off
                                             // (times kSanitizerWatchdogScale under compute-sanitizer)
  int blocks_per_sm = 0;                     // megakernel: 0 = as many as fit
  // megakernel: time the run with two CUDA events around its kernel (RunStats::milliseconds,
  // comparable with event-timed baselines). Off: no events; milliseconds is the device
  // clock from block 0's start to the last block's exit (no launch latency, no write-back),
  // and a run costs the host two calls into the CUDA runtime fewer (about 5 us of wall
  // time, H200). The other schedulers always use events.
  bool event_timer = true;
  // timesliced and controller: how long a worker block keeps claiming further batches of
  // its own task type before it leaves (work its queue receives meanwhile runs without
  // waiting for the next launch); 0: one batch per block.
  double drain_microseconds = 100.0;
};

// compute-sanitizer runs kernels orders of magnitude slower than the hardware (racecheck
// most: one RCM BFS task of 599 levels went past 10 s without finishing, session 34), so
// under it a run waits this many times longer before its watchdog fires.
inline constexpr double kSanitizerWatchdogScale = 30.0;

// The watchdog's limit for a run with these options, in seconds (0: off).
inline double watchdog_limit_seconds(const RunOptions& options, bool under_sanitizer) {
  return options.watchdog_seconds * (under_sanitizer ? kSanitizerWatchdogScale : 1.0);
}

}  // namespace apiary
