// The persistent-controller scheduler: a small controller kernel on the device, one
// thread per queue, that watches the queues' fill and launches the per-type worker
// kernels (workers.cuh) itself with dynamic parallelism — no host round trip per launch.
// See docs/schedulers.md.
//
// CUDA 12+ dynamic parallelism (CDP2) gives a parent no way to wait for its children
// (no cudaDeviceSynchronize in device code), and a child is not guaranteed to start
// before its parent ends. So the controller never waits for a worker:
//   * workers are launched fire-and-forget (cudaStreamFireAndForget): they may run at
//     once, beside the controller, which keeps polling and launching;
//   * each controller grid (a "generation") polls for a bounded time, then launches its
//     successor into cudaStreamTailLaunch and ends. The successor starts once this grid
//     and every worker it launched have finished. Progress therefore never depends on
//     workers running beside the controller; when they do (the usual case), the
//     controller reacts to new work within a poll.
// A generation polls:
//   1. the end: no task queued or running (`active` == 0) — set `done`, return;
//   2. the phase: when the current phase has drained (`phase_pending`) and no worker of
//      it is in flight, switch (execute.cuh's switch_phase; no claim can be in flight);
//   3. per queue that may run (phaseless, or of the current phase): launch one worker
//      block per full batch of ready tasks beyond what launched-but-not-started blocks
//      will claim; a last partial batch only when no block of the type is in flight (a
//      running block keeps claiming); all within a device-wide budget of warps in flight,
//      #SMs × max threads per SM × 1.5 / 32 (launch_plan.hpp);
//   4. back off (nanosleep, doubling while nothing changes).
// Worker blocks count themselves out of `workers_not_started` at their first claim and
// out of `workers_in_flight` when they leave.
//
// The watchdog is the guard kernel of workers.cuh, launched by the host beside the
// controller: a worker whose task never returns keeps its generation from ending, and
// only a kernel outside the controller's tree can then stop it.
//
// Dynamic parallelism needs relocatable device code and the device runtime (cudadevrt)
// in every program that includes this scheduler, so it is built only with the CMake
// option APIARY_CONTROLLER=ON (CUDA_SEPARABLE_COMPILATION for every target, and
// APIARY_WITH_CONTROLLER defined); otherwise run() says so.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <stdexcept>

#include "runtime/cuda_check.hpp"
#include "runtime/event_timer.hpp"
#include "runtime/runtime.cuh"
#include "schedulers/execute.cuh"
#include "schedulers/launch_plan.hpp"
#include "schedulers/workers.cuh"

#if defined(APIARY_WITH_CONTROLLER) && APIARY_WITH_CONTROLLER
#define APIARY_CONTROLLER_BUILT 1
#if defined(__CUDACC__) && !defined(__CUDACC_RDC__)
#error "the controller scheduler launches kernels from the device: compile with relocatable device code (-rdc=true; the CMake option APIARY_CONTROLLER=ON does this for every target)"
#endif
#else
#define APIARY_CONTROLLER_BUILT 0
#endif

namespace apiary::controller {

inline constexpr bool built = APIARY_CONTROLLER_BUILT != 0;

#if APIARY_CONTROLLER_BUILT

struct Params {
  long long warp_limit = 0;             // worker warps in flight at most (launch_plan.hpp)
  unsigned long long generation_ns = 0; // how long one controller grid polls before its tail launch
};

// A generation polls for at most this long; long enough that a run rarely waits for a
// generation's workers at a hand-over, short enough that progress never rests on
// workers running beside the controller for long.
inline constexpr unsigned long long kGenerationNs = 1000000;
// Device-side launches wait in a pool of cudaLimitDevRuntimePendingLaunchCount (2048 by
// default) entries until their grid ends; a generation stays far below it.
inline constexpr int kMaxLaunchesPerGeneration = 512;
// The device-side launch parameter buffer holds 4 KB.
inline constexpr std::size_t kMaxParamBytes = 4096;

// Thread q of the controller: launch worker blocks for queue Q if it has work.
template <std::size_t Q, bool Trace, class V>
__device__ void launch_worker(const V& v, const Params& p, unsigned long long* warps, int* launches_here,
                              int* launched) {
  using T = typename V::Program::template type_at<Q>;
  using S = sched::WorkerShape<T>;
  const long long ready = atomic_ref<long long>(v.queues[Q].counters->ready).load(cuda::std::memory_order_relaxed);
  const long long in_flight = atomic_ref<long long>(v.workers_in_flight[Q]).load(cuda::std::memory_order_relaxed);
  const long long not_started = atomic_ref<long long>(v.workers_not_started[Q]).load(cuda::std::memory_order_relaxed);
  long long blocks = sched::plan_blocks(ready, not_started, in_flight, S::batch);
  if (blocks <= 0) return;
  // Reserve warps in the block-wide tally (every in-flight worker, and the launches of
  // the other queue threads in this poll).
  const long long want = blocks * S::warps;
  const long long before = static_cast<long long>(atomicAdd(warps, static_cast<unsigned long long>(want)));
  blocks = sched::cap_blocks(blocks, S::warps, before, p.warp_limit);
  if (blocks <= 0) return;
  if (atomicAdd(launches_here, 1) >= kMaxLaunchesPerGeneration) return;
  if (blocks > INT_MAX) blocks = INT_MAX;
  // Counted before the launch: a block's own decrements come after these in each
  // counter's order (the child sees everything its parent wrote before the launch).
  atomic_ref<long long>(v.workers_in_flight[Q]).fetch_add(blocks, cuda::std::memory_order_relaxed);
  atomic_ref<long long>(v.workers_not_started[Q]).fetch_add(blocks, cuda::std::memory_order_relaxed);
  sched::worker_kernel<V, Q, Trace><<<static_cast<unsigned>(blocks), S::block_threads, S::shared_bytes,
                                     cudaStreamFireAndForget>>>(v, sched::WorkerLaunch::counted);
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) {
    atomic_ref<long long>(v.workers_in_flight[Q]).fetch_sub(blocks, cuda::std::memory_order_relaxed);
    atomic_ref<long long>(v.workers_not_started[Q]).fetch_sub(blocks, cuda::std::memory_order_relaxed);
    atomic_ref<int>(v.control->error_detail).store(static_cast<int>(e), cuda::std::memory_order_relaxed);
    raise_error(v, ErrorCode::launch_failed, static_cast<int>(Q));
    return;
  }
  atomic_ref<unsigned long long>(v.control->launches).fetch_add(1, cuda::std::memory_order_relaxed);
  atomic_ref<int>(v.control->max_grid).fetch_max(static_cast<int>(blocks), cuda::std::memory_order_relaxed);
  *launched = 1;
}

// One block of ceil32(type_count) threads; thread q looks after queue q.
template <class V, bool Trace>
__global__ void controller_kernel(const __grid_constant__ V v, const Params p) {
  using P = typename V::Program;
  constexpr std::size_t kTypes = P::type_count;
  enum : int { kPoll = 0, kEnd = 1, kHandOver = 2 };
  RunControl* ctl = v.control;
  __shared__ unsigned long long s_warps;  // warps in flight, plus this poll's launches
  __shared__ int s_phase, s_next, s_launched, s_launches;
  const unsigned q = threadIdx.x;
  const unsigned long long t0 = global_time_ns();
  if (q == 0) {
    s_launches = 0;
    atomic_ref<unsigned long long>(ctl->rounds).fetch_add(1, cuda::std::memory_order_relaxed);
  }
  unsigned backoff_ns = 0;
  for (;;) {
    if (q == 0) {
      s_warps = 0;
      s_launched = 0;
    }
    __syncthreads();
    if (q < kTypes) {
      dispatch_queue<P>(q, [&]<std::size_t Q>() {
        const long long n = atomic_ref<long long>(v.workers_in_flight[Q]).load(cuda::std::memory_order_relaxed);
        if (n > 0) atomicAdd(&s_warps, static_cast<unsigned long long>(n * sched::WorkerShape<typename P::template type_at<Q>>::warps));
      });
    }
    __syncthreads();
    if (q == 0) {
      // Thread 0 reads the in-flight counts itself, with acquire: a count seen at 0
      // means those blocks have retired their batches and will claim nothing more.
      constexpr auto phase_of_queue = P::phase_of_queue;
      long long all = 0, of_phase = 0;
      const int phase = phase_of_word(atomic_ref<unsigned long long>(ctl->phase_word).load(cuda::std::memory_order_acquire));
      for (std::size_t k = 0; k < kTypes; ++k) {
        const long long n = atomic_ref<long long>(v.workers_in_flight[k]).load(cuda::std::memory_order_acquire);
        all += n;
        if (phase_of_queue[k] >= 0) of_phase += n;
      }
      int next = kPoll;
      if (aborted(v)) {
        next = all == 0 ? kEnd : kHandOver;  // the successor starts once every worker has finished
      } else if (atomic_ref<long long>(ctl->active).load(cuda::std::memory_order_acquire) == 0) {
        next = kEnd;  // nothing queued or running: nothing can create work any more
      } else if constexpr (P::phase_count > 0) {
        if (of_phase == 0 && phase >= 0 &&
            atomic_ref<long long>(v.phase_pending[phase]).load(cuda::std::memory_order_acquire) == 0) {
          sched::switch_phase(v, phase);  // no worker of the phase can claim: the CAS cannot fail
          if (aborted(v)) next = all == 0 ? kEnd : kHandOver;  // work for a finished phase (phase_order)
        }
      }
      if (next == kPoll && (global_time_ns() - t0 > p.generation_ns || s_launches >= kMaxLaunchesPerGeneration))
        next = kHandOver;
      // `done` only where no worker can run any more (or none can find work): the guard
      // then leaves.
      if (next == kEnd) atomic_ref<int>(ctl->done).store(1, cuda::std::memory_order_release);
      s_phase = phase_of_word(atomic_ref<unsigned long long>(ctl->phase_word).load(cuda::std::memory_order_relaxed));
      s_next = next;
    }
    __syncthreads();
    if (s_next == kEnd) return;
    if (s_next == kHandOver) {
      if (q == 0) {
        controller_kernel<V, Trace><<<1, blockDim.x, 0, cudaStreamTailLaunch>>>(v, p);
        const cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess) {
          atomic_ref<int>(ctl->error_detail).store(static_cast<int>(e), cuda::std::memory_order_relaxed);
          raise_error(v, ErrorCode::launch_failed, -1);
        }
      }
      return;
    }
    if (q < kTypes && sched::runs_in_phase<P>(q, s_phase))
      dispatch_queue<P>(q, [&]<std::size_t Q>() { launch_worker<Q, Trace>(v, p, &s_warps, &s_launches, &s_launched); });
    __syncthreads();
    if (q == 0) {
      backoff_ns = s_launched ? 0 : (backoff_ns == 0 ? 64 : min(backoff_ns * 2, 2048u));
      if (backoff_ns) __nanosleep(backoff_ns);
    }
  }
}

template <class R>
RunStats run(R& rt, cudaStream_t stream) {
  using V = typename R::View;
  using P = typename R::Program;
  if constexpr (sizeof(V) + sizeof(Params) > kMaxParamBytes) {
    throw RunError(cat("controller: the program's device view (its queues and Env, ", sizeof(V),
                       " bytes) does not fit the ", kMaxParamBytes,
                       " bytes of a device-side launch: keep the Env small (pointers to device memory)"));
  } else {
    static_assert(P::type_count <= 1024, "controller: one thread per task type, at most 1024");
    LaunchResources& res = rt.launch_resources();
    unsigned long long* words = res.host_words(sched::kGuardStopWord + 1);
    unsigned long long* device_words = res.device_words();
    const cudaStream_t guard_stream = res.guard_stream();

    const V v = rt.prepare(stream);
    const bool trace = rt.options().trace;
    const auto names = P::type_names();
    int worker_threads = 0;
    for_each_queue<P>([&]<std::size_t Q>() {
      using S = sched::WorkerShape<typename P::template type_at<Q>>;
      auto kernel = sched::by_trace(trace, [](auto traced) { return sched::worker_kernel<V, Q, decltype(traced)::value>; });
      sched::prepare_worker(kernel, S::block_threads, S::shared_bytes, "controller", names[Q], v);
      worker_threads = std::max(worker_threads, S::block_threads);
    });
    int device = 0, sms = 0, threads_per_sm = 0;
    APIARY_CUDA_CHECK(cudaGetDevice(&device));
    APIARY_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    APIARY_CUDA_CHECK(cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, device));
    const Params params{sched::controller_warp_limit(sms, threads_per_sm), kGenerationNs};
    const unsigned controller_threads = static_cast<unsigned>((P::type_count + 31) / 32 * 32);
    auto controller = sched::by_trace(trace, [](auto traced) { return controller_kernel<V, decltype(traced)::value>; });
    sched::load_kernel(controller);  // before the guard starts: see load_kernel (workers.cuh)

    EventTimer timer;
    cudaError_t failure = cudaSuccess;
    {
      sched::GuardScope guard(v, guard_stream, words, device_words);
      timer.start(stream);
      controller<<<1, controller_threads, 0, stream>>>(v, params);
      failure = cudaGetLastError();
      // The controller grid ends after every grid it launched (workers, successors).
      if (failure == cudaSuccess) failure = cudaStreamSynchronize(stream);
      guard.stop();
    }
    if (failure != cudaSuccess) {
      rt.finish(Scheduler::controller, stream);  // a trapped kernel: the watchdog's report
      cuda_check(failure, "controller kernel", __FILE__, __LINE__);
    }
    timer.stop(stream);
    RunStats s = rt.finish(Scheduler::controller, stream);
    s.milliseconds = timer.elapsed_ms();
    s.threads_per_block = worker_threads;
    return s;
  }
}

#else  // !APIARY_CONTROLLER_BUILT

template <class R>
RunStats run(R&, cudaStream_t) {
  throw std::invalid_argument(
      "scheduler 'controller' is not built: it launches kernels from the device (dynamic parallelism), which "
      "needs relocatable device code; configure with -DAPIARY_CONTROLLER=ON");
}

#endif

}  // namespace apiary::controller
