// The time-sliced scheduler: a host loop of rounds. Each round one small kernel (one
// thread) looks at the device state while nothing else runs — it ends the run when no
// task is queued or running, switches the phase when the current one has drained, and
// writes every launchable queue's fill into mapped host memory — and the host then
// launches one worker kernel per task type with work, each on its own stream, with one
// block per batch of queued tasks (grid = ceil(fill / tasks per block)). The next
// round's look waits for all of them. See docs/schedulers.md.
//
//   round:  plan_round<<<1,1,0,stream>>>  ──sync──►  host reads status, phase, fills
//           worker<Q><<<ceil(fill_q / batch_q), block_q, smem_q, stream_q>>>   (per q with work)
//           event_q on stream_q; stream waits for every event_q; next plan_round
//
// One host round trip per round: a stream synchronisation, after which the plan's words
// are in host memory. Worker blocks keep claiming from their own queue for up to
// RunOptions::drain_microseconds (tasks a kernel creates for its own type run without a
// new round); what is created for other types, or after a block has left, runs in a
// later round. The phase changes only between rounds, so no claim can race a switch.
//
// Watchdog: a guard kernel (workers.cuh) runs beside the rounds. A round that never
// finishes because a task never returns is stopped by the guard's __trap(); a run that
// stalls between rounds (waiting tasks nobody can release) is aborted by the guard and
// ends at the next round's look.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <climits>
#include <cstdint>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "runtime/cuda_check.hpp"
#include "runtime/event_timer.hpp"
#include "runtime/nvtx.hpp"
#include "runtime/runtime.cuh"
#include "schedulers/execute.cuh"
#include "schedulers/launch_plan.hpp"
#include "schedulers/workers.cuh"

namespace apiary::timesliced {

// Layout of the mapped host words: the guard's stop flag (workers.cuh), then what a
// round's look writes.
enum Word : std::size_t { kStatus = sched::kGuardStopWord + 1, kPhase, kFill };  // fill of queue q at kFill + q
enum Status : unsigned long long { kRunning = 0, kFinished = 1, kAborted = 2 };

// One thread, between rounds (every kernel of the previous round has finished, so no
// claim is in flight and `active` counts queued tasks only): end, switch, report.
template <class V>
__global__ void plan_round(const __grid_constant__ V v, unsigned long long* words) {
  using P = typename V::Program;
  RunControl* ctl = v.control;
  volatile unsigned long long* out = words;
  unsigned long long status = kRunning;
  if (aborted(v)) {
    status = kAborted;
  } else if (atomic_ref<long long>(ctl->active).load(cuda::std::memory_order_acquire) == 0) {
    status = kFinished;  // nothing queued or running: nothing can create work any more
  } else if constexpr (P::phase_count > 0) {
    const int phase = phase_of_word(atomic_ref<unsigned long long>(ctl->phase_word).load(cuda::std::memory_order_acquire));
    if (phase >= 0 && atomic_ref<long long>(v.phase_pending[phase]).load(cuda::std::memory_order_acquire) == 0) {
      sched::switch_phase(v, phase);  // no claim is in flight: the CAS cannot fail
      if (aborted(v)) status = kAborted;  // work for a finished phase (phase_order)
    }
  }
  // Whoever waits for the end (the guard) may stop now: no worker runs, none will.
  if (status != kRunning) atomic_ref<int>(ctl->done).store(1, cuda::std::memory_order_release);
  const int phase = phase_of_word(atomic_ref<unsigned long long>(ctl->phase_word).load(cuda::std::memory_order_relaxed));
  for (std::size_t q = 0; q < P::type_count; ++q) {
    long long fill = 0;
    if (status == kRunning && sched::runs_in_phase<P>(q, phase))
      fill = atomic_ref<long long>(v.queues[q].counters->ready).load(cuda::std::memory_order_relaxed);
    out[kFill + q] = fill > 0 ? static_cast<unsigned long long>(fill) : 0ull;
  }
  out[kPhase] = static_cast<unsigned>(phase);
  out[kStatus] = status;
}

template <class R>
RunStats run(R& rt, cudaStream_t stream) {
  using V = typename R::View;
  using P = typename R::Program;
  constexpr std::size_t kTypes = P::type_count;
  using Kernel = void (*)(V, sched::WorkerLaunch);

  LaunchResources& res = rt.launch_resources();
  unsigned long long* words = res.host_words(kFill + kTypes);
  unsigned long long* device_words = res.device_words();
  const cudaStream_t guard_stream = res.guard_stream();
  for (std::size_t q = 0; q < kTypes; ++q) {  // created now: nothing below creates them mid-run
    static_cast<void>(res.stream(q));
    static_cast<void>(res.event(q));
  }

  const V v = rt.prepare(stream);
  const bool trace = rt.options().trace;
  const auto names = P::type_names();
  std::array<Kernel, kTypes> kernels{};
  std::array<int, kTypes> block_threads{};
  std::array<long long, kTypes> batch{};
  std::array<std::size_t, kTypes> shared{};
  for_each_queue<P>([&]<std::size_t Q>() {
    using S = sched::WorkerShape<typename P::template type_at<Q>>;
    kernels[Q] = sched::by_trace(trace, [](auto traced) { return sched::worker_kernel<V, Q, decltype(traced)::value>; });
    block_threads[Q] = S::block_threads;
    batch[Q] = S::batch;
    shared[Q] = S::shared_bytes;
    sched::prepare_worker(kernels[Q], S::block_threads, S::shared_bytes, "timesliced", names[Q], v);
  });

  sched::load_kernel(plan_round<V>);  // before the guard starts: see load_kernel
  EventTimer timer;
  std::uint64_t rounds = 0, launches = 0;
  int max_grid = 0, max_threads = 0;
  cudaError_t failure = cudaSuccess;
  const char* failed_call = "";
  {
    // On every way out of the loop: wait for the workers still running (a launch may
    // have failed mid-round), then stop the guard.
    struct Drain {
      LaunchResources& res;
      std::size_t streams;
      cudaStream_t stream;
      sched::GuardScope& guard;
      ~Drain() {
        for (std::size_t i = 0; i < streams; ++i) static_cast<void>(cudaStreamSynchronize(res.stream(i)));
        static_cast<void>(cudaStreamSynchronize(stream));
        guard.stop();
      }
    };
    sched::GuardScope guard(v, guard_stream, words, device_words);
    Drain drain{res, kTypes, stream, guard};
    timer.start(stream);
    unsigned idle_us = 0;
    std::optional<NvtxRange> phase_range;
    unsigned long long shown_phase = ~0ull;
    auto check = [&](cudaError_t e, const char* call) {
      if (e != cudaSuccess && failure == cudaSuccess) {
        failure = e;
        failed_call = call;
      }
      return e == cudaSuccess;
    };
    for (;;) {
      plan_round<V><<<1, 1, 0, stream>>>(v, device_words);
      if (!check(cudaGetLastError(), "plan_round launch")) break;
      if (!check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (timesliced round)")) break;
      const volatile unsigned long long* in = words;
      if (in[kStatus] != kRunning) break;
      if constexpr (P::phase_count > 0) {
        // One NVTX range per phase, as the host sees the switches (between rounds).
        if (in[kPhase] != shown_phase) {
          shown_phase = in[kPhase];
          phase_range.reset();
          const std::string name = "phase " + std::to_string(static_cast<int>(shown_phase));
          phase_range.emplace(name);
        }
      }
      ++rounds;
      std::array<long long, kTypes> grid{};
      std::size_t with_work = 0;
      for (std::size_t q = 0; q < kTypes; ++q) {
        grid[q] = std::min<long long>(sched::timesliced_grid(static_cast<long long>(in[kFill + q]), batch[q]), INT_MAX);
        if (grid[q] > 0) ++with_work;
      }
      if (with_work == 0) {
        // Work is queued only for later phases while the current one still has tasks
        // waiting on dependencies that nothing running can resolve: the run is stuck
        // until the guard's watchdog aborts it. Poll gently.
        idle_us = idle_us == 0 ? 1 : std::min(idle_us * 2, 1000u);
        std::this_thread::sleep_for(std::chrono::microseconds(idle_us));
        continue;
      }
      idle_us = 0;
      bool ok = true;
      for (std::size_t q = 0; q < kTypes && ok; ++q) {
        if (grid[q] == 0) continue;
        // A lone launch goes on the run's stream; several get a stream each, joined by events.
        const cudaStream_t s = with_work == 1 ? stream : res.stream(q);
        kernels[q]<<<static_cast<unsigned>(grid[q]), static_cast<unsigned>(block_threads[q]), shared[q], s>>>(v, sched::WorkerLaunch::plain);
        ok = check(cudaGetLastError(), "worker kernel launch (timesliced)");
        if (ok && with_work > 1) {
          ok = check(cudaEventRecord(res.event(q), s), "cudaEventRecord (timesliced)") &&
               check(cudaStreamWaitEvent(stream, res.event(q), 0), "cudaStreamWaitEvent (timesliced)");
        }
        if (ok) {
          ++launches;
          if (grid[q] > max_grid) {
            max_grid = static_cast<int>(grid[q]);
            max_threads = block_threads[q];
          }
        }
      }
      if (!ok) break;
    }
  }
  if (failure != cudaSuccess) {
    // A trapped kernel (the guard's watchdog) or a failed task surfaces here as a CUDA
    // error: finish() turns it into the run's own error. Anything else is reported as is.
    rt.finish(Scheduler::timesliced, stream);
    cuda_check(failure, failed_call, __FILE__, __LINE__);
  }
  timer.stop(stream);
  RunStats s = rt.finish(Scheduler::timesliced, stream);
  s.milliseconds = timer.elapsed_ms();
  s.blocks = max_grid;
  s.threads_per_block = max_threads;
  s.rounds = rounds;
  s.launches = launches;
  return s;
}

}  // namespace apiary::timesliced
