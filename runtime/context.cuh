// The context a task's execute() receives: who this thread is within the task, the
// task's barrier and shared memory, and the ways to create and release other tasks.
#pragma once

#include <cstddef>

#include "runtime/device_view.cuh"

namespace apiary {

#if defined(__CUDACC__)

// Barrier 0 over the whole block, in the non-.aligned form (see TaskBarrier below): for
// code whose threads may arrive diverged, such as after a branch on the thread's rank.
__device__ inline void cta_barrier() { asm volatile("barrier.sync 0;" ::: "memory"); }

// Synchronizes only the `threads` threads of one task, never the whole block: nothing
// for a one-thread task, the lane mask below a warp, __syncwarp for a warp, a named
// barrier for several warps (ids 1..15; the scheduler keeps id 0 for its own block-wide
// barrier, which a task that fills the whole block shares).
//
// Multi-warp barriers use the non-.aligned form (`barrier.sync`, not `bar.sync` or
// __syncthreads, which are `barrier.sync.aligned`): .aligned promises that every thread of
// the CTA executes the same barrier instruction, converged, which a scheduler does not
// keep — tasks run behind data-dependent branches, and the threads of the block that
// have no task wait at the scheduler's barrier meanwhile. compute-sanitizer's synccheck
// reported "divergent threads" at the .aligned forms (docs/schedulers.md#under-compute-sanitizer).
template <int threads>
struct TaskBarrier {
  unsigned lane_mask = 0xffffffffu;
  int barrier_id = 0;

  __device__ void sync() const {
    if constexpr (threads == 1) {
      // Program order already orders one thread's memory operations.
    } else if constexpr (threads < 32) {
      __syncwarp(lane_mask);
    } else if constexpr (threads == 32) {
      __syncwarp();
    } else {
      asm volatile("barrier.sync %0, %1;" ::"r"(barrier_id), "r"(threads) : "memory");
    }
  }
};

template <class V, class Task>
class TaskContext {
 public:
  using Env = decltype(V::env);
  using Program = typename V::Program;  // for code shared by the task types of several programs
  static constexpr int threads = Task::threads;

  // `cont` (may be null) is where the scheduler lets this task leave one ready task.
  __device__ TaskContext(const V& view, int rank, void* shared, TaskBarrier<threads> barrier,
                         const Continuation* cont = nullptr)
      : view_(view), rank_(rank), shared_(shared), barrier_(barrier), cont_(cont) {}

  // Rank of this thread within the task, 0 .. size() - 1.
  __device__ int rank() const { return rank_; }
  __device__ static constexpr int size() { return threads; }
  // Barrier over this task's threads only.
  __device__ void sync() const { barrier_.sync(); }
  // This task's shared memory (Task::shared_bytes bytes, 16-byte aligned).
  __device__ void* shared() const { return shared_; }
  template <class U>
  __device__ U* shared_as() const {
    return static_cast<U*>(shared_);
  }
  __device__ const Env& env() const { return view_.env; }
  // True once the run was aborted (an error elsewhere, or the watchdog): a long task
  // may poll it to stop early.
  __device__ bool aborted() const { return apiary::aborted(view_); }
  // aborted() with one answer for all the task's threads, for a task that polls it
  // between its barriers: threads reading aborted() each can see the flag at different
  // times, and a thread that returns early leaves the others waiting at the next barrier.
  // Thread 0 reads it into `flag` (in the task's shared memory), every thread returns
  // that copy. Every thread must call it; it passes two barriers (the second, so that
  // the next call's write cannot overtake a slow reader).
  __device__ bool aborted_together(bool& flag) const {
    if (rank_ == 0) flag = aborted();
    sync();
    const bool stop = flag;
    sync();
    return stop;
  }

  // Creates a task of type T, ready to run (in its phase).
  template <class T>
  __device__ void enqueue(const typename T::Item& item) const {
    enqueue_task<T>(view_, item, cont_);
  }
  // Creates `count` tasks of type T, item i = make(i) (an int -> T::Item callable), for
  // a fan-out (the next iteration's row tasks, one task per chunk). Collective: every
  // thread of this task calls it, with the same count, like sync(); rank r makes items
  // r, r + size(), ... The threads of a warp share one reservation and one update of
  // each run-wide counter (push_each in runtime/device_view.cuh), where a loop of
  // enqueue calls costs every thread four atomics on the same few words. The tasks go to
  // their queue, never to the block's continuation slot (below a warp: item by item).
  template <class T, class Make>
  __device__ void enqueue_each(int count, Make&& make) const {
    enqueue_task_each<T, threads>(view_, rank_, count, make, cont_);
  }
  // Reserved fan-outs, for a task that knows how many tasks of type T a later task will
  // create (Jacobi's next iteration): reserve<T>(count) takes their queue positions and
  // waits for their slots now, and enqueue_reserved<T>(r, make) creates them later with
  // only the writes, as enqueue_each does but without its two dependent memory round
  // trips (the tail's RMW and the slots' sequence numbers). reserve is collective over
  // one warp (its 32 lanes call it with the same count); enqueue_reserved over the task,
  // like enqueue_each (rank r makes items r, r + size(), ...). The task that fills a
  // reservation must be ordered after the one that made it (release/acquire through
  // memory, or the same task). A consumer may claim a reserved position before it is
  // filled and wait for it there, so fill every reservation before anything such a wait
  // could hold up; one left unfilled is harmless only once the run has no task left.
  // An empty reservation (count 0) is an overflow (raised) or an aborted run.
  template <class T>
  __device__ QueueReservation reserve(int count) const {
    static_assert(threads % 32 == 0, "reserve: tasks of whole warps only");
    return reserve_task_positions<T>(view_, rank_, count, cont_);
  }
  template <class T, class Make>
  __device__ void enqueue_reserved(const QueueReservation& r, Make&& make) const {
    enqueue_task_reserved<T, threads>(view_, rank_, r, make);
  }
  // Creates a task of type T that runs once `dep` has been resolved `predecessors` times
  // (resolves that come before this call count too). Call once per use of `dep`.
  template <class T>
  __device__ void enqueue_after(Dependency& dep, int predecessors, const typename T::Item& item) const {
    enqueue_after_task<T>(view_, dep, predecessors, item, cont_);
  }
  // One predecessor of the task behind `dep` is done.
  __device__ void resolve(Dependency& dep) const { resolve_dependency(view_, dep, cont_); }

 private:
  const V& view_;
  int rank_;
  void* shared_;
  TaskBarrier<threads> barrier_;
  const Continuation* cont_;
};

#endif  // __CUDACC__

}  // namespace apiary
