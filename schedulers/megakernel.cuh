// The megakernel scheduler: persistent blocks, as many as fit on the device, each
// repeatedly claiming a batch of tasks from one queue of the current phase (or a
// phaseless queue), executing it, and helping to switch phases and to detect the end.
//
// Control decisions are taken by thread 0 of a block while the others wait at the
// block barrier; the batch is then staged in shared memory and executed by groups of
// Task::threads threads. See docs/schedulers.md.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "runtime/context.cuh"
#include "runtime/cuda_check.hpp"
#include "runtime/event_timer.hpp"
#include "runtime/runtime.cuh"

namespace apiary::megakernel {

template <class P>
struct Config {
  // Threads per block: at least 256 so small tasks come in large batches.
  static constexpr int block_threads = P::max_threads > 256 ? P::max_threads : 256;
  // Multi-warp tasks need a named barrier each (ids 1..15).
  template <class T>
  static constexpr int batch = T::threads >= 64 ? std::min(block_threads / T::threads, 15)
                                                 : block_threads / T::threads;
  static constexpr std::size_t align16(std::size_t b) { return (b + 15) / 16 * 16; }
  static constexpr std::size_t stage_bytes = [] {
    std::size_t m = 16;
    for_each_queue<P>([&]<std::size_t Q>() {
      using T = typename P::template type_at<Q>;
      m = std::max(m, align16(batch<T> * sizeof(typename T::Item)));
    });
    return m;
  }();
  static constexpr std::size_t task_shared_bytes = [] {
    std::size_t m = 0;
    for_each_queue<P>([&]<std::size_t Q>() {
      using T = typename P::template type_at<Q>;
      m = std::max(m, batch<T> * align16(T::shared_bytes));
    });
    return m;
  }();
  static constexpr std::size_t shared_bytes = stage_bytes + task_shared_bytes;
  static constexpr int min_blocks = block_threads <= 512 ? 2 : 1;
};

struct Claim {
  int queue;
  std::uint32_t count;
  unsigned long long first;
  int exit;
  int idle;   // nothing to do this round: back off
  int local;  // the one task in the block's continuation slot, not a queue batch
};

// Block-wide barrier for the scheduler's own steps, entered with every warp
// reconverged (thread 0 often arrives late from a branch of its own).
__device__ inline void block_barrier() {
  __syncwarp();
  __syncthreads();
}

template <class V>
__device__ void watchdog_fire(const V& v, unsigned long long idle_ns) {
  using P = typename V::Program;
  int expected = 0;
  if (!atomic_ref<int>(v.control->error).compare_exchange_strong(expected, static_cast<int>(ErrorCode::watchdog))) {
    atomic_ref<int>(v.control->abort).store(1);
    return;
  }
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
  // Give the other blocks time to leave; a task that never returns would keep the
  // kernel alive forever, so then stop it (the host reads the report above).
  const unsigned long long grace = std::min<unsigned long long>(v.watchdog_ns / 2 + 1, 2000000000ull);
  const unsigned long long t0 = global_time_ns();
  while (atomic_ref<int>(v.control->live_blocks).load() > 1) {
    if (global_time_ns() - t0 > grace) __trap();
    __nanosleep(1000);
  }
}

template <class V>
__device__ bool phase_has_ready_work(const V& v, int phase) {
  using P = typename V::Program;
  constexpr auto phase_begin = P::phase_begin;
  for (std::size_t q = phase_begin[phase]; q < phase_begin[phase + 1]; ++q)
    if (atomic_ref<long long>(v.queues[q].counters->ready).load(cuda::std::memory_order_relaxed) > 0) return true;
  return false;
}

// Called by the block that saw the current phase drained: takes the phase word from
// (phase, no claim in flight) to the switching state — the CAS fails while any block
// is inside a claim of the phase, and the switch is simply retried later — re-checks
// that the phase is still drained, and moves to the next phase with work (wrapping
// around only in cyclic programs).
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

// Thread 0 only: claim a batch, or decide that the block should wait or leave.
// Idle polling uses plain loads; read-modify-writes happen only where there is work,
// so a thousand idle blocks do not slow down the few that have some.
template <class V>
__device__ Claim claim_work(const V& v, unsigned round) {
  using P = typename V::Program;
  using C = Config<P>;
  constexpr auto phase_begin = P::phase_begin;
  Claim c{-1, 0, 0, 0, 0, 0};
  RunControl* ctl = v.control;
  if (aborted(v) || atomic_ref<int>(ctl->done).load(cuda::std::memory_order_relaxed)) {
    c.exit = 1;
    return c;
  }
  auto try_range = [&](std::size_t begin, std::size_t end) {
    const std::size_t n = end - begin;
    for (std::size_t k = 0; k < n && c.count == 0; ++k) {
      const std::size_t q = begin + (blockIdx.x + round + k) % n;
      dispatch_queue<P>(q, [&]<std::size_t Q>() {
        using T = typename P::template type_at<Q>;
        c.count = queue_claim(v.queues[Q], C::template batch<T>, &c.first);
        c.queue = static_cast<int>(Q);
      });
    }
  };
  if constexpr (P::phaseless_count > 0) {
    try_range(0, P::phaseless_count);
    if (c.count > 0) return c;
  }
  atomic_ref<unsigned long long> word(ctl->phase_word);
  const int phase = phase_of_word(word.load(cuda::std::memory_order_acquire));
  if constexpr (P::phase_count > 0) {
    if (phase >= 0 && phase_has_ready_work(v, phase)) {
      // Register the claim and read the phase in one atomic: a switch cannot slip in
      // between, because its CAS needs the token count to be zero.
      const unsigned long long seen = word.fetch_add(kClaimToken, cuda::std::memory_order_acquire);
      if (phase_of_word(seen) == phase) try_range(phase_begin[phase], phase_begin[phase + 1]);
      word.fetch_sub(kClaimToken, cuda::std::memory_order_release);
      if (c.count > 0) return c;
    }
  }
  if (atomic_ref<long long>(ctl->active).load(cuda::std::memory_order_acquire) == 0) {
    atomic_ref<int>(ctl->done).store(1, cuda::std::memory_order_relaxed);
    c.exit = 1;
    return c;
  }
  if constexpr (P::phase_count > 0) {
    if (phase >= 0 && atomic_ref<long long>(v.phase_pending[phase]).load(cuda::std::memory_order_acquire) == 0) {
      switch_phase(v, phase);
      return c;
    }
  }
  if (v.watchdog_ns != 0) {
    const unsigned long long now = global_time_ns();
    const unsigned long long last =
        atomic_ref<unsigned long long>(ctl->last_progress_ns).load(cuda::std::memory_order_relaxed);
    if (now > last && now - last > v.watchdog_ns) {
      watchdog_fire(v, now - last);
      c.exit = 1;
      return c;
    }
  }
  c.idle = 1;
  return c;
}

// The block's continuation slot (see Continuation in runtime/device_view.cuh).
template <class P>
struct LocalSlot {
  int full;
  int queue;
  alignas(16) unsigned char item[P::max_item_bytes];
};

// All threads: stage the claimed items in shared memory, execute, account.
template <std::size_t Q, bool Trace, class V>
__device__ void run_batch(const V& v, Claim& claim, unsigned char* smem, LocalSlot<typename V::Program>& local) {
  using P = typename V::Program;
  using C = Config<P>;
  using T = typename P::template type_at<Q>;
  using Item = typename T::Item;
  Item* items = reinterpret_cast<Item*>(smem);
  __shared__ int s_aborted;
  if (threadIdx.x == 0) s_aborted = 0;
  if (claim.local) {
    if (threadIdx.x == 0) {
      items[0] = *reinterpret_cast<const Item*>(local.item);
      local.full = 0;  // free again for the tasks of this batch
    }
  } else {
    block_barrier();
    for (unsigned i = threadIdx.x; i < claim.count; i += blockDim.x)
      if (!queue_take(v.queues[Q], claim.first + i, &items[i], &v.control->abort)) s_aborted = 1;
  }
  block_barrier();

  constexpr int phase = P::phase_of_queue[Q];
  const unsigned group = threadIdx.x / T::threads;
  if (group < claim.count && !s_aborted) {
    TaskBarrier<T::threads> barrier;
    if constexpr (T::threads < 32) {
      const unsigned lane = threadIdx.x % 32;
      barrier.lane_mask = ((1u << T::threads) - 1u) << (lane / T::threads * T::threads);
    } else if constexpr (T::threads > 32) {
      barrier.barrier_id = T::threads == C::block_threads ? 0 : 1 + static_cast<int>(group);
    }
    unsigned char* task_shared = smem + C::stage_bytes + group * C::align16(T::shared_bytes);
    const Continuation cont{&local.full, &local.queue, local.item, phase};
    TaskContext<V, T> ctx(v, static_cast<int>(threadIdx.x % T::threads), task_shared, barrier, &cont);
    unsigned long long start = 0;
    if constexpr (Trace) start = global_time_ns();
    T::execute(items[group], ctx);
    if constexpr (Trace) {
      ctx.sync();
      if (ctx.rank() == 0) {
        const unsigned long long k = atomic_ref<unsigned long long>(*v.trace_count).fetch_add(1);
        if (k < v.trace_capacity) v.trace[k] = TraceRecord{static_cast<std::uint32_t>(Q), sm_id(), start, global_time_ns()};
      }
    }
  }
  block_barrier();
  if (threadIdx.x == 0) {
    const unsigned n = claim.count;
    atomic_ref<unsigned long long>(v.queues[Q].counters->executed).fetch_add(n, cuda::std::memory_order_relaxed);
    // Release: the batch's effects (and the tasks it created, counted before) become
    // visible to whoever sees these counters drop.
    if constexpr (phase >= 0) atomic_ref<long long>(v.phase_pending[phase]).fetch_sub(n, cuda::std::memory_order_release);
    atomic_ref<long long>(v.control->active).fetch_sub(n, cuda::std::memory_order_release);
    atomic_ref<unsigned long long>(v.control->last_progress_ns).store(global_time_ns(), cuda::std::memory_order_relaxed);
  }
}

template <class V, bool Trace>
__global__ void __launch_bounds__(Config<typename V::Program>::block_threads, Config<typename V::Program>::min_blocks)
    megakernel(const V v) {
  using P = typename V::Program;
  extern __shared__ __align__(16) unsigned char smem[];
  __shared__ Claim claim;
  __shared__ LocalSlot<P> local;
  if (threadIdx.x == 0) {
    local.full = 0;
    atomic_ref<int>(v.control->live_blocks).fetch_add(1);
    atomic_ref<unsigned long long>(v.control->last_progress_ns).fetch_max(global_time_ns());
  }
  unsigned backoff_ns = 0;
  for (unsigned round = 0;; ++round) {
    if (threadIdx.x == 0) {
      // A chain of continuations never visits claim_work: poll the abort flag every 16th.
      if (local.full && ((round & 15) != 0 || !aborted(v))) {
        claim = Claim{local.queue, 1, 0, 0, 0, 1};  // run the continuation first: no queue trip
      } else {
        claim = claim_work(v, round);
      }
      // Exponential back-off while idle: with hundreds of blocks polling, one of them
      // still wakes within nanoseconds of new work, but the control words stay cool.
      if (claim.idle) {
        backoff_ns = backoff_ns == 0 ? 32 : min(backoff_ns * 2, 2048u);
        __nanosleep(backoff_ns);
      } else {
        backoff_ns = 0;
      }
    }
    block_barrier();
    if (claim.exit) break;
    if (claim.count > 0) dispatch_queue<P>(claim.queue, [&]<std::size_t Q>() { run_batch<Q, Trace>(v, claim, smem, local); });
    block_barrier();
  }
  if (threadIdx.x == 0) atomic_ref<int>(v.control->live_blocks).fetch_sub(1);
}

template <class R>
RunStats run(R& rt, cudaStream_t stream) {
  using V = typename R::View;
  using C = Config<typename R::Program>;
  auto v = rt.prepare(stream);
  auto kernel = rt.options().trace ? megakernel<V, true> : megakernel<V, false>;
  if (C::shared_bytes > 48 * 1024)
    APIARY_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(C::shared_bytes)));
  int per_sm = 0;
  APIARY_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, C::block_threads, C::shared_bytes));
  if (per_sm == 0)
    throw RunError("megakernel: a block does not fit on a multiprocessor (too much shared memory or registers)");
  if (rt.options().blocks_per_sm > 0) per_sm = std::min(per_sm, rt.options().blocks_per_sm);
  int device = 0, sms = 0;
  APIARY_CUDA_CHECK(cudaGetDevice(&device));
  APIARY_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const int blocks = per_sm * sms;  // all resident at once: blocks may wait on each other

  EventTimer timer;
  timer.start(stream);
  kernel<<<blocks, C::block_threads, C::shared_bytes, stream>>>(v);
  APIARY_CUDA_CHECK_LAUNCH();
  timer.stop(stream);
  RunStats s = rt.finish(Scheduler::megakernel, stream);
  s.milliseconds = timer.elapsed_ms();
  s.blocks = blocks;
  s.threads_per_block = C::block_threads;
  return s;
}

}  // namespace apiary::megakernel
