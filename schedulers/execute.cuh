// What every scheduler does the same way, so that a program gives the same results and
// statistics under each: running one claimed batch (staging the items in shared memory,
// each task's barrier, shared memory and context, the trace record, the counters a
// finished batch lowers), switching phases, and the watchdog's report.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "runtime/context.cuh"
#include "runtime/device_view.cuh"
#include "runtime/run_options.hpp"
#include "schedulers/launch_plan.hpp"

namespace apiary::sched {

// Block-wide barrier for a scheduler's own steps (barrier 0, every thread). Not the
// .aligned __syncthreads: thread 0 arrives from branches of its own and the threads of a
// batch from their tasks (see TaskBarrier in runtime/context.cuh). Measured on an H100,
// the phase switch is also faster this way (docs/schedulers.md#under-compute-sanitizer).
__device__ inline void block_barrier() { cta_barrier(); }

// The traced or untraced variant of a kernel: pick(std::bool_constant<Trace>) returns it.
// A build without traced kernels (APIARY_TRACE_KERNELS=OFF) instantiates only the
// untraced one; Runtime refuses RunOptions::trace there.
template <class Pick>
auto by_trace(bool trace, Pick pick) {
  if constexpr (kTraceKernels) {
    return trace ? pick(std::true_type{}) : pick(std::false_type{});
  } else {
    static_cast<void>(trace);
    return pick(std::false_type{});
  }
}

template <std::size_t Q, class V>
using ItemOf = typename V::Program::template type_at<Q>::Item;

// All threads: read the `count` items claimed at positions first, first + 1, ... of queue
// Q into `items` (shared memory). Sets *aborted when the run was aborted, or ended, while
// a take waited for its producer (the megakernel's `done`: no task is left anywhere, so
// the position will never be published; see queue_claim). The timesliced and controller
// schedulers set `done` only once no worker runs, so never while a take waits there.
template <std::size_t Q, class V>
__device__ void stage_claimed(const V& v, unsigned long long first, unsigned count, ItemOf<Q, V>* items, int* aborted) {
  for (unsigned i = threadIdx.x; i < count; i += blockDim.x)
    if (!queue_take(v.queues[Q], first + i, &items[i], &v.control->abort, &v.control->done)) *aborted = 1;
}

// The barrier of the task that thread group `group` (Threads threads each) of a block of
// BlockThreads threads runs: its lane mask below a warp, a named barrier of its own for
// several warps, barrier 0 when it fills the block.
template <int Threads, int BlockThreads>
__device__ TaskBarrier<Threads> task_barrier(unsigned group) {
  TaskBarrier<Threads> barrier;
  if constexpr (Threads < 32) {
    const unsigned lane = threadIdx.x % 32;
    barrier.lane_mask = ((1u << Threads) - 1u) << (lane / Threads * Threads);
  } else if constexpr (Threads > 32) {
    barrier.barrier_id = Threads == BlockThreads ? 0 : 1 + static_cast<int>(group);
  }
  return barrier;
}

// The threads of thread group `group` (T::threads threads) of a block of BlockThreads
// threads: run one task of queue Q. It gets its own barrier (lane mask below a warp,
// __syncwarp for a warp, named barrier 1 + group for several warps, the block's barrier
// when it fills the block), its own shared memory (task_shared + group ×
// align16(T::shared_bytes)) and a context with the continuation slots `cont` (may be
// null). With Trace, rank 0 writes {queue, SM, start, end}.
template <std::size_t Q, bool Trace, int BlockThreads, class V>
__device__ void execute_task(const V& v, const ItemOf<Q, V>& item, unsigned group, unsigned char* task_shared,
                             const Continuation* cont) {
  using P = typename V::Program;
  using T = typename P::template type_at<Q>;
  TaskContext<V, T> ctx(v, static_cast<int>(threadIdx.x % T::threads),
                        task_shared + group * align16(static_cast<std::size_t>(T::shared_bytes)),
                        task_barrier<T::threads, BlockThreads>(group), cont);
  unsigned long long start = 0;
  if constexpr (Trace) start = global_time_ns();
  T::execute(item, ctx);
  if constexpr (Trace) {
    ctx.sync();
    if (ctx.rank() == 0) {
      const unsigned long long k = atomic_ref<unsigned long long>(*v.trace_count).fetch_add(1);
      if (k < v.trace_capacity) v.trace[k] = TraceRecord{static_cast<std::uint32_t>(Q), sm_id(), start, global_time_ns()};
    }
  }
}

// All threads of a block of BlockThreads threads: groups of T::threads threads run one
// task each of items[0 .. count) (execute_task).
template <std::size_t Q, bool Trace, int BlockThreads, class V>
__device__ void execute_batch(const V& v, const ItemOf<Q, V>* items, unsigned count, unsigned char* task_shared,
                              bool aborted, const Continuation* cont) {
  using T = typename V::Program::template type_at<Q>;
  const unsigned group = threadIdx.x / T::threads;
  if (group >= count || aborted) return;
  execute_task<Q, Trace, BlockThreads>(v, items[group], group, task_shared, cont);
}

// Thread 0, after the batch's closing barrier: count n finished tasks of queue Q.
template <std::size_t Q, class V>
__device__ void retire_batch(const V& v, unsigned n) {
  using P = typename V::Program;
  constexpr int phase = P::phase_of_queue[Q];
  atomic_ref<unsigned long long>(v.queues[Q].counters->executed).fetch_add(n, cuda::std::memory_order_relaxed);
  // Release: the batch's effects (and the tasks it created, counted before) become
  // visible to whoever sees these counters drop. One fence for both decrements: two
  // release operations would wait for the first one's round trip before the second.
  cuda::atomic_thread_fence(cuda::std::memory_order_release, cuda::thread_scope_device);
  if constexpr (phase >= 0) atomic_ref<long long>(v.phase_pending[phase]).fetch_sub(n, cuda::std::memory_order_relaxed);
  atomic_ref<long long>(v.control->active).fetch_sub(n, cuda::std::memory_order_relaxed);
  atomic_ref<unsigned long long>(v.control->last_progress_ns).store(global_time_ns(), cuda::std::memory_order_relaxed);
}

template <class V>
__device__ bool phase_has_ready_work(const V& v, int phase) {
  using P = typename V::Program;
  constexpr auto phase_begin = P::phase_begin;
  for (std::size_t q = phase_begin[phase]; q < phase_begin[phase + 1]; ++q)
    if (atomic_ref<long long>(v.queues[q].counters->ready).load(cuda::std::memory_order_relaxed) > 0) return true;
  return false;
}

// Called when the current phase looked drained: takes the phase word from (phase, no
// claim in flight) to the switching state — the CAS fails while any megakernel block is
// inside a claim of the phase, and the switch is simply retried later (the other
// schedulers call it where no claim can be in flight) — re-checks that the phase is
// still drained, and moves to the next phase with work (wrapping around only in cyclic
// programs; work for a finished phase of a non-cyclic program raises phase_order).
template <class V>
__device__ void switch_phase(const V& v, int phase) {
  using P = typename V::Program;
  constexpr auto phase_begin = P::phase_begin;
  constexpr int phases = static_cast<int>(P::phase_count);
  RunControl* ctl = v.control;
  atomic_ref<unsigned long long> word(ctl->phase_word);
  unsigned long long expected = phase_word(phase);
  if (!word.compare_exchange_strong(expected, phase_word(kSwitching), cuda::std::memory_order_acq_rel)) return;
  int next = -1;
  if (atomic_ref<long long>(v.phase_pending[phase]).load(cuda::std::memory_order_acquire) == 0) {
    for (int k = 1; k <= phases; ++k) {
      const int p = (phase + k) % phases;
      if (atomic_ref<long long>(v.phase_pending[p]).load(cuda::std::memory_order_acquire) > 0) {
        next = p;
        break;
      }
    }
  }
  if (next >= 0 && next <= phase && !v.cyclic) {
    raise_error(v, ErrorCode::phase_order, static_cast<int>(phase_begin[next]));
    next = -1;
  }
  if (next >= 0) {
    atomic_ref<unsigned long long>(ctl->phase_switches).fetch_add(1, cuda::std::memory_order_relaxed);
    atomic_ref<unsigned long long>(ctl->last_progress_ns).store(global_time_ns(), cuda::std::memory_order_relaxed);
  }
  // Blocks may hold a token for a moment (they saw kSwitching and are backing out):
  // keep the token count, replace the phase.
  const int target = next >= 0 ? next : phase;
  unsigned long long w = word.load(cuda::std::memory_order_relaxed);
  while (!word.compare_exchange_weak(w, (w & ~0xffffffffull) | static_cast<unsigned>(target),
                                     cuda::std::memory_order_release, cuda::std::memory_order_relaxed)) {
  }
}

// True when a queue may run now: phaseless, or of the current phase.
template <class P>
__host__ __device__ inline bool runs_in_phase(std::size_t q, int phase) {
  constexpr auto phase_of_queue = P::phase_of_queue;  // a local copy: indexable at run time on the device
  return phase_of_queue[q] < 0 || phase_of_queue[q] == phase;
}

// ---- watchdog -------------------------------------------------------------------

// Records the watchdog as the run's error; false when another error came first.
template <class V>
__device__ bool claim_watchdog_error(const V& v) {
  int expected = 0;
  return atomic_ref<int>(v.control->error).compare_exchange_strong(expected, static_cast<int>(ErrorCode::watchdog));
}

// Writes the diagnostics into mapped host memory, where they survive a trapped kernel,
// then aborts the run: running tasks see ctx.aborted(), loops and waits end.
template <class V>
__device__ void write_watchdog_report(const V& v, unsigned long long idle_ns) {
  using P = typename V::Program;
  volatile WatchdogReport* r = v.report;
  r->phase = phase_of_word(atomic_ref<unsigned long long>(v.control->phase_word).load());
  r->active = atomic_ref<long long>(v.control->active).load();
  r->waiting = atomic_ref<long long>(v.control->waiting).load();
  r->idle_ns = idle_ns;
  r->queue_count = static_cast<int>(P::type_count);
  for (std::size_t q = 0; q < P::type_count && q < kMaxReportedQueues; ++q) r->fill[q] = queue_fill(v.queues[q]);
  __threadfence_system();
  r->fired = 1;
  __threadfence_system();
  atomic_ref<int>(v.control->abort).store(1);
}

// How long the watchdog gives running tasks to return after the abort; a task still
// running then never returns, and the watchdog stops the kernel with __trap().
template <class V>
__device__ unsigned long long watchdog_grace_ns(const V& v) {
  return std::min<unsigned long long>(v.watchdog_ns / 2 + 1, 2000000000ull);
}

}  // namespace apiary::sched
