// The per-type worker kernels of the schedulers that launch kernels (timesliced from a
// host loop, controller from the device), and the watchdog guard that runs beside them.
//
// A worker kernel is a template instantiated per queue index, so each task type gets
// its own register allocation and block shape (WorkerShape). Its blocks claim batches
// from the type's queue with the queue's own protocol (queue_claim, queue_take), so items
// that other kernels push meanwhile stay correct, run them with the code the megakernel
// uses (execute.cuh) and lower the same counters, so statistics agree across schedulers.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <mutex>
#include <set>
#include <string>
#include <utility>

#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"
#include "runtime/errors.hpp"
#include "runtime/text.hpp"
#include "schedulers/execute.cuh"

namespace apiary::sched {

// How a worker kernel was launched: the host's warm-up launch (warm_up_worker below; the
// kernel returns at once), by the timesliced scheduler, or by the controller, whose
// per-queue counts each block updates (`counted`). A launch argument rather than a
// template parameter, so that a program compiles one set of worker kernels for both.
enum class WorkerLaunch : unsigned char { warm_up, plain, counted };

// One block: claim a batch, run it, and keep claiming further batches of the same queue
// while it has some and RunOptions::drain_microseconds have not passed since the block
// started (the first batch is always claimed); then leave. A block claims nothing once
// the run is aborted. Launched `counted` (controller), the block takes itself out of the
// controller's per-queue counts: not started after its first claim, in flight at its end.
template <class V, std::size_t Q, bool Trace>
__global__ void __launch_bounds__(WorkerShape<typename V::Program::template type_at<Q>>::block_threads)
    worker_kernel(const __grid_constant__ V v, WorkerLaunch launch) {
  if (launch == WorkerLaunch::warm_up) return;
  const bool counted = launch == WorkerLaunch::counted;
  using P = typename V::Program;
  using T = typename P::template type_at<Q>;
  using S = WorkerShape<T>;
  using Item = typename T::Item;
  extern __shared__ __align__(16) unsigned char smem[];
  __shared__ unsigned s_count;
  __shared__ unsigned long long s_first;
  __shared__ int s_aborted;
  Item* items = reinterpret_cast<Item*>(smem);
  const unsigned long long t0 = threadIdx.x == 0 ? global_time_ns() : 0;
  long long left = 0;  // thread 0: items the queue had left after the last claim
  for (unsigned round = 0;; ++round) {
    if (threadIdx.x == 0) {
      unsigned long long first = 0;
      unsigned count = 0;
      if (!aborted(v) && (round == 0 || global_time_ns() - t0 < v.drain_ns))
        // Where the last claim left work in the queue, no cheap test (eager).
        count = queue_claim(v.queues[Q], static_cast<std::uint32_t>(S::batch), &first, left > 0, &left);
      if (counted && round == 0)
        atomic_ref<long long>(v.workers_not_started[Q]).fetch_sub(1, cuda::std::memory_order_relaxed);
      s_count = count;
      s_first = first;
      s_aborted = 0;
    }
    block_barrier();
    const unsigned count = s_count;
    if (count == 0) break;
    stage_claimed<Q>(v, s_first, count, items, &s_aborted);
    block_barrier();
    execute_batch<Q, Trace, S::block_threads>(v, items, count, smem + S::stage_bytes, s_aborted != 0, nullptr);
    block_barrier();
    if (threadIdx.x == 0) retire_batch<Q>(v, count);
  }
  // Release: the controller that sees the count drop (acquire) sees this block's
  // batches retired, and knows it will claim nothing more.
  if (counted && threadIdx.x == 0)
    atomic_ref<long long>(v.workers_in_flight[Q]).fetch_sub(1, cuda::std::memory_order_release);
}

// The watchdog beside a scheduler whose tasks run in kernels it launches (timesliced,
// controller). One thread, launched before any worker on a stream of the greatest
// priority, so it is resident while they run; it polls every few microseconds:
//   * the run is over (`done`, set by the scheduler only once no worker runs) or the
//     host asks it to stop (`host_stop`, mapped host memory): leave;
//   * no progress for RunOptions::watchdog_seconds: write the report, abort the run,
//     and wait up to the grace period for the scheduler to finish; a task that has not
//     returned by then never will, and __trap() stops it (and the context).
// It only reads the run's counters and never holds anything a worker needs.
template <class V>
__global__ void guard_kernel(const __grid_constant__ V v, const unsigned long long* host_stop) {
  RunControl* ctl = v.control;
  const volatile unsigned long long* stop = host_stop;
  atomic_ref<unsigned long long>(ctl->last_progress_ns).fetch_max(global_time_ns());
  const unsigned poll_ns = static_cast<unsigned>(v.watchdog_ns / 16 < 20000 ? v.watchdog_ns / 16 + 1 : 20000);
  auto over = [&] { return atomic_ref<int>(ctl->done).load(cuda::std::memory_order_relaxed) != 0 || *stop != 0; };
  for (;;) {
    if (over()) return;
    const unsigned long long now = global_time_ns();
    const unsigned long long last = atomic_ref<unsigned long long>(ctl->last_progress_ns).load(cuda::std::memory_order_relaxed);
    if (now > last && now - last > v.watchdog_ns) {
      // The report is written even when another error came first: it is what explains
      // a trapped kernel (finish reads it when the stream reports the trap).
      static_cast<void>(claim_watchdog_error(v));
      write_watchdog_report(v, now - last);
      const unsigned long long grace = watchdog_grace_ns(v);
      while (!over()) {
        if (global_time_ns() - now > grace) __trap();
        __nanosleep(1000);
      }
      return;
    }
    __nanosleep(poll_ns);
  }
}

// Host: loads a kernel's code onto the device now. With lazy loading (the default since
// CUDA 12.2) a kernel is loaded at its first launch, and loading may wait for the kernels
// already running: a kernel launched while the guard (which spins until the run ends) is
// resident could then never start, and the run would stall until the guard's watchdog
// stopped it. That is what the first H200 run of both schedulers showed (no task ever
// ran). So every kernel a scheduler launches while the guard runs is loaded before the
// guard starts (the CUDA guide's remedy: cudaFuncGetAttributes forces the load).
template <class Kernel>
cudaFuncAttributes load_kernel(Kernel kernel) {
  cudaFuncAttributes attributes{};
  APIARY_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
  return attributes;
}

// Host: launches a worker kernel once (one block that returns at once) and waits for it,
// the first time this process prepares it on this device. Loading the code
// (load_kernel) is not all a first launch does: the driver also grows the per-thread
// local memory to what the kernel's call stack needs, and growing it waits until every
// running kernel has finished. A worker whose task bodies need a deeper stack than any
// kernel before it would wait for the guard, which waits for the run: the generic
// programs' phases mode hung so under both schedulers in the tests of an H200 run
// (2026-11-22), when a time-sliced or controller run was the first in its process. After
// one launch the memory is there for every later run of the process.
// The stack limit is also raised to the kernel's local memory, so that the driver has no
// reason to resize it at a later launch either.
template <class V>
void warm_up_worker(void (*kernel)(V, WorkerLaunch), int block_threads, std::size_t shared_bytes, const V& v,
                    std::size_t local_bytes) {
  static std::mutex mutex;
  static std::set<std::pair<int, const void*>> done;
  int device = 0;
  APIARY_CUDA_CHECK(cudaGetDevice(&device));
  const std::lock_guard<std::mutex> lock(mutex);
  if (!done.insert({device, reinterpret_cast<const void*>(kernel)}).second) return;
  std::size_t stack = 0;
  APIARY_CUDA_CHECK(cudaDeviceGetLimit(&stack, cudaLimitStackSize));
  if (local_bytes > stack) APIARY_CUDA_CHECK(cudaDeviceSetLimit(cudaLimitStackSize, local_bytes));
  kernel<<<1, static_cast<unsigned>(block_threads), shared_bytes>>>(v, WorkerLaunch::warm_up);
  APIARY_CUDA_CHECK_LAUNCH();
  APIARY_CUDA_CHECK(cudaDeviceSynchronize());
}

// Host: makes a worker kernel ready to launch with `shared_bytes` of dynamic shared
// memory (opting in above 48 KiB) and checks that one block fits on a multiprocessor.
template <class V>
void prepare_worker(void (*kernel)(V, WorkerLaunch), int block_threads, std::size_t shared_bytes, const char* scheduler,
                    const std::string& type_name, const V& v) {
  if (shared_bytes > 48 * 1024)
    APIARY_CUDA_CHECK(
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared_bytes)));
  const cudaFuncAttributes attributes = load_kernel(kernel);
  int per_sm = 0;
  APIARY_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block_threads, shared_bytes));
  if (per_sm == 0)
    throw RunError(cat(scheduler, ": a block of task type ", type_name, " (", block_threads, " threads, ",
                       shared_bytes, " bytes of shared memory) does not fit on a multiprocessor (too much shared "
                                     "memory or registers)"));
  warm_up_worker(kernel, block_threads, shared_bytes, v, attributes.localSizeBytes);
}

// The guard's stop flag is this word of LaunchResources' mapped host words.
inline constexpr std::size_t kGuardStopWord = 0;

// Host: the guard's lifetime around one run. Launches the guard (when the watchdog is
// on) and, on every way out, asks it to stop and waits for it, ignoring errors: after a
// trap every call fails, and the run's own error is what finish() reports.
// `host_words` and `device_words` are LaunchResources' mapped words (the same memory).
class GuardScope {
 public:
  template <class V>
  GuardScope(const V& v, cudaStream_t guard_stream, unsigned long long* host_words, unsigned long long* device_words)
      : stream_(guard_stream), host_stop_(host_words + kGuardStopWord) {
    unsigned long long* device_stop = device_words + kGuardStopWord;
    *host_stop_ = 0;
    // No guard under compute-sanitizer (under_compute_sanitizer, runtime/device.hpp): there
    // a stuck task is not stopped.
    if (v.watchdog_ns == 0 || under_compute_sanitizer()) return;
    guard_kernel<V><<<1, 1, 0, stream_>>>(v, device_stop);
    APIARY_CUDA_CHECK_LAUNCH();
    launched_ = true;
  }
  GuardScope(const GuardScope&) = delete;
  GuardScope& operator=(const GuardScope&) = delete;
  ~GuardScope() { stop(); }
  void stop() noexcept {
    *static_cast<volatile unsigned long long*>(host_stop_) = 1;
    if (launched_) static_cast<void>(cudaStreamSynchronize(stream_));
    launched_ = false;
  }

 private:
  cudaStream_t stream_;
  unsigned long long* host_stop_;
  bool launched_ = false;
};

}  // namespace apiary::sched
