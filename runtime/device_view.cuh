// What device code sees of a run: the queues, the control counters, the waiting
// storage, the trace buffer and the user's environment, with the operations tasks
// use (enqueue, enqueue behind a dependency, resolve). Schedulers build on these.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/dependency.hpp"
#include "runtime/portable.hpp"
#include "runtime/queue.hpp"
#include "runtime/state.hpp"
#include "runtime/task.hpp"
#include "runtime/waiting_storage.hpp"

namespace apiary {

struct NoEnv {};

template <class P, class Env>
struct DeviceView {
  using Program = P;
  QueueView queues[P::type_count];
  RunControl* control = nullptr;
  long long* phase_pending = nullptr;  // per phase: queued + waiting + running tasks
  std::uint32_t* wait_state = nullptr;
  std::uint32_t* wait_queue = nullptr;
  unsigned char* wait_items = nullptr;
  std::uint32_t wait_capacity = 0;  // tasks that may wait at once (RunOptions::waiting_capacity)
  std::uint32_t wait_slots = 0;     // slots allocated: wait_capacity + waiting_slot_reserve(...)
  std::uint32_t freed_per_block = 0;  // megakernel: slots a block may hold before it gives them back
  TraceRecord* trace = nullptr;  // null when tracing is off
  unsigned long long* trace_count = nullptr;
  std::uint32_t trace_capacity = 0;
  WatchdogReport* report = nullptr;  // mapped host memory
  // Megakernel: the last block to leave copies the run-wide words (readback_bytes from
  // `control`, the start of the runtime's RunState) here, mapped host memory, so that the
  // host reads them without a copy of its own after the run.
  void* readback = nullptr;
  std::uint32_t readback_bytes = 0;
  unsigned long long watchdog_ns = 0;
  unsigned long long drain_ns = 0;   // timesliced, controller: RunOptions::drain_microseconds
  // controller, per queue: worker blocks launched and not yet finished, and those of
  // them that have not yet started (made their first claim).
  long long* workers_in_flight = nullptr;
  long long* workers_not_started = nullptr;
  bool cyclic = false;
  Env env{};

  static constexpr std::size_t wait_stride = (P::max_item_bytes + 15) / 16 * 16;
};

// Slots allocated beyond the waiting capacity, so that megakernel blocks can give back
// the slots of the tasks they took over in batches (schedulers/megakernel.cuh, FreedSlots)
// while the capacity stays what the user asked for: 2^14 slots, or fewer for large items
// (4 MiB at most).
constexpr std::uint32_t waiting_slot_reserve(std::size_t stride) {
  const std::size_t by_bytes = (std::size_t{4} << 20) / stride;
  return static_cast<std::uint32_t>(by_bytes < (1u << 14) ? by_bytes : (1u << 14));
}

// One task kept in a megakernel block's shared memory.
struct SlotRef {
  int* full = nullptr;            // 1 while the slot holds a task
  int* queue = nullptr;
  unsigned char* item = nullptr;  // 16-byte aligned, Program::max_item_bytes
  std::uint32_t* wait_slot = nullptr;  // the task's slot in waiting storage, still to give back (or kNoSlot)
};

// Where a task of a megakernel block leaves a task it releases (enqueue or last resolve)
// so that it does not travel through a global queue:
//  * `next`: a task that may run now — phaseless, or of the phase the releasing task
//    belongs to (that phase cannot end while its own task runs). The block runs it next.
//  * `held` (programs with several phases and no phaseless types, otherwise null): a
//    task of another phase. When the block's batch turns out to be the last work of the
//    current phase, the block switches to the held task's phase itself and runs it;
//    otherwise it puts it into its queue (schedulers/megakernel.cuh).
// Tasks in either slot are counted in the block's `active_delta`, not in RunControl::active.
struct Continuation {
  SlotRef next;
  SlotRef held;
  int* active_delta = nullptr;  // shared memory: see LocalSlot in schedulers/megakernel.cuh
  int phase = -1;               // phase of the running task, -1 if phaseless
  // Shared memory, megakernel with waiting claims only (otherwise null): 1 + the position
  // of queue 0 whose slot the running task's block has not freed yet (0: none). See
  // free_held_position.
  unsigned long long* held_position = nullptr;
};

#if defined(__CUDACC__)

__device__ inline unsigned long long global_time_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ inline unsigned sm_id() {
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

// Records the first error and aborts the run.
template <class V>
__device__ void raise_error(const V& v, ErrorCode code, int queue) {
  int expected = 0;
  if (atomic_ref<int>(v.control->error).compare_exchange_strong(expected, static_cast<int>(code)))
    atomic_ref<int>(v.control->error_queue).store(queue);
  atomic_ref<int>(v.control->abort).store(1);
}

template <class V>
__device__ bool aborted(const V& v) {
  return atomic_ref<int>(v.control->abort).load(cuda::std::memory_order_relaxed) != 0;
}

// A megakernel block that took its task with a waiting claim frees that position's slot
// after the task, with the batch's release fence, instead of before it with a fence of
// its own on the path to the task's start (schedulers/megakernel.cuh: waiting_claim). A
// producer of the task that has to wait for a slot frees it first, since the slot it
// waits for may be this one (its queue has gone round once while the task ran): this is
// the hook it calls before its first wait (NothingBeforeWait in runtime/queue.hpp). Any
// thread of the task; the exchange makes one of them the one that frees it.
template <class V>
__device__ void free_held_position(const V& v, const Continuation* cont) {
  if (cont == nullptr || cont->held_position == nullptr) return;
  const unsigned long long held = atomicExch(cont->held_position, 0ull);
  if (held == 0) return;
  const QueueView& q = v.queues[0];
  const unsigned long long pos = held - 1;
  // Release: the block's read of the item (before the task's first barrier) comes first.
  atomic_ref<unsigned long long>(q.seq[pos & (q.capacity - 1)]).store(pos + q.capacity,
                                                                     cuda::std::memory_order_release);
}

// Only a program of one phaseless queue can have waiting claims (the megakernel asserts
// it). Elsewhere producers get no hook, and none is compiled: with the hook's code in
// every wait, RCM's megakernel (at its register cap) took 34.4 instead of 28 ms on the
// start-node search of poisson2d:1000 (H100, session 25).
template <class P>
inline constexpr bool may_hold_claimed_slot = P::type_count == 1 && P::phaseless_count == 1;

template <class V>
__device__ auto before_slot_wait(const V& v, const Continuation* cont) {
  if constexpr (may_hold_claimed_slot<typename V::Program>) {
    return [&v, cont] { free_held_position(v, cont); };
  } else {
    static_cast<void>(v);
    static_cast<void>(cont);
    return NothingBeforeWait{};
  }
}

// Items i < count of a fan-out that the warp of `rank` makes (i % S in the warp's ranks).
template <int S>
__device__ unsigned warp_items(int rank, int count) {
  const int c = count - (rank & ~31);  // items from this warp's first rank on
  return c <= 0 ? 0u : static_cast<unsigned>(32 * (c / S) + min(32, c % S));
}

// Counts `total` new tasks of queue Q as active (and pending in their phase). Count
// first: a consumer could run and retire a task before the counters rose. Relaxed is
// enough: the tasks' own decrements come later in these counters' modification order
// (a warp barrier and the items' release order them).
template <std::size_t Q, class V>
__device__ void count_new_tasks(const V& v, unsigned total) {
  constexpr int phase = V::Program::phase_of_queue[Q];
  if constexpr (phase >= 0)
    atomic_ref<long long>(v.phase_pending[phase]).fetch_add(total, cuda::std::memory_order_relaxed);
  atomic_ref<long long>(v.control->active).fetch_add(total, cuda::std::memory_order_relaxed);
}

// Task-collective fan-out into queue Q: every thread of a task of S threads (S a
// multiple of 32) calls it with the same `count`; item i = make(i) is created by rank
// i % S. Each warp's lane 0 raises `active` and the phase's pending count for all of the
// warp's items and reserves their positions with one atomic, every thread publishes its
// own items, and lane 0 makes them claimable with one more; push_item, called per item,
// costs every thread four RMWs on the same few words. The warp's items in round j (items
// j*S + 32*w .. +31) are its positions j*32 + lane: all rounds but the last are full, so
// they fill the reservation without a gap. The warps are whole, because the task is.
template <std::size_t Q, int S, class V, class Make>
__device__ void push_each(const V& v, int rank, int count, Make&& make, const Continuation* cont) {
  static_assert(S % 32 == 0, "push_each: whole warps only");
  using u64 = unsigned long long;
  const QueueView& q = v.queues[Q];
  const int lane = rank & 31;
  const unsigned total = warp_items<S>(rank, count);
  u64 base = 0;
  if (lane == 0 && total > 0) {
    count_new_tasks<Q>(v, total);
    base = atomic_ref<u64>(q.counters->tail).fetch_add(total, cuda::std::memory_order_relaxed);
  }
  __syncwarp();
  base = __shfl_sync(0xffffffffu, base, 0);
  // Each thread's items kPublishGroup at a time (queue_publish_group): one at a time, a
  // task that made 13184 row tasks of Jacobi took 57 us over it (H200, session 16).
  constexpr int kPublishGroup = 4;
  unsigned published = 0;
  bool overflow = false;
  for (int j0 = 0; j0 * S + rank < count; j0 += kPublishGroup) {
    int n = 1;
    while (n < kPublishGroup && (j0 + n) * S + rank < count) ++n;
    const PublishCount r = queue_publish_group<kPublishGroup>(
        q, n, [&](int g) { return base + static_cast<u64>(j0 + g) * 32u + static_cast<u64>(lane); },
        [&](int g) { return make((j0 + g) * S + rank); }, &v.control->abort, before_slot_wait(v, cont));
    published += r.published;
    overflow = overflow || r.overflow;
  }
  published = __reduce_add_sync(0xffffffffu, published);
  if (lane == 0 && published > 0) queue_made_ready(q, published, base + total);
  if (overflow) raise_error(v, ErrorCode::queue_overflow, static_cast<int>(Q));
}

// Warp-collective (all 32 lanes, the same count): reserves `count` positions of queue Q
// for a later publish_reserved (QueueReservation in queue.hpp). Lane 0 takes them from
// the tail; each lane reads the sequence numbers of positions lane, lane + 32, ... (four
// at once, relaxed, then one acquire fence) and waits only for a slot not free yet. An
// overflow raises the error; then, or in an aborted run, the reservation is empty.
template <std::size_t Q, class V>
__device__ QueueReservation reserve_positions(const V& v, int rank, int count, const Continuation* cont) {
  using u64 = unsigned long long;
  const QueueView& q = v.queues[Q];
  const u64 mask = q.capacity - 1;
  const int lane = rank & 31;
  u64 first = 0;
  if (lane == 0 && count > 0)
    first = atomic_ref<u64>(q.counters->tail).fetch_add(static_cast<u64>(count), cuda::std::memory_order_relaxed);
  first = __shfl_sync(0xffffffffu, first, 0);
  constexpr int kGroup = 4;
  PushResult result = PushResult::ok;
  for (int i0 = lane; i0 < count; i0 += 32 * kGroup) {
    u64 seen[kGroup];
#pragma unroll
    for (int g = 0; g < kGroup; ++g) {
      const int i = i0 + 32 * g;
      seen[g] = i < count ? atomic_ref<u64>(q.seq[(first + i) & mask]).load(cuda::std::memory_order_relaxed) : 0;
    }
#pragma unroll
    for (int g = 0; g < kGroup; ++g) {
      const int i = i0 + 32 * g;
      if (i < count && seen[g] != first + i && result == PushResult::ok)
        result = queue_wait_free(q, first + i, &v.control->abort, before_slot_wait(v, cont));
    }
  }
  cuda::atomic_thread_fence(cuda::std::memory_order_acquire, cuda::thread_scope_device);
  const bool overflow = __any_sync(0xffffffffu, result == PushResult::overflow);
  const bool failed = __any_sync(0xffffffffu, result != PushResult::ok);
  if (overflow && lane == 0) raise_error(v, ErrorCode::queue_overflow, static_cast<int>(Q));
  return QueueReservation{first, failed || count <= 0 ? 0u : static_cast<unsigned>(count)};
}

// Task-collective (every thread of a task of S threads, S a multiple of 32): publishes
// item i = make(i) at position r.first + i for every i < r.count, rank i % S making item
// i, and makes them claimable: push_each without the tail's RMW and the reads of the
// slots' sequence numbers, which reserve_positions made.
template <std::size_t Q, int S, class V, class Make>
__device__ void publish_reserved(const V& v, int rank, const QueueReservation& r, Make&& make) {
  static_assert(S % 32 == 0, "publish_reserved: whole warps only");
  const QueueView& q = v.queues[Q];
  const int count = static_cast<int>(r.count);
  const unsigned total = warp_items<S>(rank, count);
  if (total == 0) return;  // the whole warp
  if ((rank & 31) == 0) count_new_tasks<Q>(v, total);
  __syncwarp();
  using Item = decltype(make(0));
  for (int i = rank; i < count; i += S) static_cast<Item*>(q.items)[(r.first + i) & (q.capacity - 1)] = make(i);
  cuda::atomic_thread_fence(cuda::std::memory_order_release, cuda::thread_scope_device);
  for (int i = rank; i < count; i += S)
    atomic_ref<unsigned long long>(q.seq[(r.first + i) & (q.capacity - 1)]).store(r.first + i + 1,
                                                                                  cuda::std::memory_order_relaxed);
  if ((rank & 31) == 0) queue_made_ready(q, total, r.first + r.count);
}

// Puts an item into queue Q (or the block's continuation slot). `wait_slot` is kNoSlot
// for a new task; for a task that moves from waiting storage (counted in its phase when
// it was created) it is the slot its item was read from. That slot is given back here
// when the task goes to a queue, and by the block when it lands in a continuation slot:
// a device-scope fence orders the read before the slot's reuse, and a block that keeps
// the slot for a while can give many back after one fence (schedulers/megakernel.cuh).
template <std::size_t Q, class V>
__device__ void push_item(const V& v, const typename V::Program::template type_at<Q>::Item& item,
                          std::uint32_t wait_slot, const Continuation* cont) {
  using P = typename V::Program;
  using Item = typename P::template type_at<Q>::Item;
  constexpr int phase = P::phase_of_queue[Q];
  // Count first: a consumer could run and retire the task before the counters rose.
  // Relaxed is enough: the task's own decrement comes later in these counters'
  // modification order, and the queue's release/acquire orders the item itself.
  if constexpr (phase >= 0) {
    if (wait_slot == kNoSlot) atomic_ref<long long>(v.phase_pending[phase]).fetch_add(1, cuda::std::memory_order_relaxed);
  }
  if (cont != nullptr) {
    const SlotRef& slot = phase < 0 || phase == cont->phase ? cont->next : cont->held;
    if (slot.full != nullptr && atomicCAS(slot.full, 0, 1) == 0) {
      // `active` still counts the task that released this one: see LocalSlot.
      atomicAdd(cont->active_delta, 1);
      *slot.queue = static_cast<int>(Q);
      *slot.wait_slot = wait_slot;
      *reinterpret_cast<Item*>(slot.item) = item;
      return;
    }
  }
  if (wait_slot != kNoSlot) release_slot(v.wait_state, wait_slot);
  atomic_ref<long long>(v.control->active).fetch_add(1, cuda::std::memory_order_relaxed);
  const PushResult r = queue_push(v.queues[Q], item, &v.control->abort, before_slot_wait(v, cont));
  if (r == PushResult::overflow) raise_error(v, ErrorCode::queue_overflow, static_cast<int>(Q));
}

// Moves a task whose last dependency was just resolved from waiting storage to its queue.
template <class V>
__device__ void move_to_queue(const V& v, std::uint32_t slot, const Continuation* cont) {
  using P = typename V::Program;
  if (slot == kNoSlot) return;  // its reservation failed; the error is already raised
  // Items of up to 64 bytes are loaded together with the queue index (one memory round
  // trip, not two: the item's type is only known from the queue index); larger ones after
  // it, so that they do not occupy registers in every resolve.
  const unsigned char* stored = v.wait_items + std::size_t{slot} * V::wait_stride;
  constexpr bool early = V::wait_stride <= 64;
  constexpr std::size_t words = early ? V::wait_stride / 16 : 1;
  uint4 bytes[words];
  if constexpr (early)
    for (std::size_t w = 0; w < words; ++w) bytes[w] = reinterpret_cast<const uint4*>(stored)[w];
  const std::uint32_t q = v.wait_queue[slot];
  dispatch_queue<P>(q, [&]<std::size_t Q>() {
    using Item = typename P::template type_at<Q>::Item;
    Item item;
    memcpy(&item, early ? static_cast<const void*>(bytes) : static_cast<const void*>(stored), sizeof(Item));
    atomic_ref<long long>(v.control->waiting).fetch_sub(1, cuda::std::memory_order_relaxed);
    push_item<Q>(v, item, slot, cont);
  });
}

template <class T, class V>
__device__ void enqueue_task(const V& v, const typename T::Item& item, const Continuation* cont) {
  using P = typename V::Program;
  static_assert(P::template contains<T>, "enqueue<T>: T is not a task type of this program");
  push_item<P::template queue_of<T>>(v, item, kNoSlot, cont);
}

// Called by every thread of a task of S threads: see push_each. Tasks below a warp
// create their items one by one.
template <class T, int S, class V, class Make>
__device__ void enqueue_task_each(const V& v, int rank, int count, Make&& make, const Continuation* cont) {
  using P = typename V::Program;
  static_assert(P::template contains<T>, "enqueue_each<T>: T is not a task type of this program");
  constexpr std::size_t Q = P::template queue_of<T>;
  if constexpr (S % 32 == 0) {
    push_each<Q, S>(v, rank, count, make, cont);
  } else {
    for (int i = rank; i < count; i += S) push_item<Q>(v, make(i), kNoSlot, cont);
  }
}

template <class T, class V>
__device__ QueueReservation reserve_task_positions(const V& v, int rank, int count, const Continuation* cont) {
  using P = typename V::Program;
  static_assert(P::template contains<T>, "reserve<T>: T is not a task type of this program");
  return reserve_positions<P::template queue_of<T>>(v, rank, count, cont);
}

template <class T, int S, class V, class Make>
__device__ void enqueue_task_reserved(const V& v, int rank, const QueueReservation& r, Make&& make) {
  using P = typename V::Program;
  static_assert(P::template contains<T>, "enqueue_reserved<T>: T is not a task type of this program");
  publish_reserved<P::template queue_of<T>, S>(v, rank, r, make);
}

// Creates a task of type T that starts after `predecessors` resolves of `dep`.
template <class T, class V>
__device__ void enqueue_after_task(const V& v, Dependency& dep, int predecessors, const typename T::Item& item,
                                   const Continuation* cont) {
  using P = typename V::Program;
  static_assert(P::template contains<T>, "enqueue_after<T>: T is not a task type of this program");
  constexpr std::size_t q = P::template queue_of<T>;
  if (predecessors < 0) {
    raise_error(v, ErrorCode::bad_dependency, static_cast<int>(q));
    return;
  }
  constexpr int phase = P::phase_of_queue[q];
  if constexpr (phase >= 0) atomic_ref<long long>(v.phase_pending[phase]).fetch_add(1, cuda::std::memory_order_relaxed);
  const long long w = atomic_ref<long long>(v.control->waiting).fetch_add(1, cuda::std::memory_order_relaxed) + 1;
  atomic_ref<long long> peak(v.control->peak_waiting);
  if (peak.load(cuda::std::memory_order_relaxed) < w) peak.fetch_max(w);
  std::uint32_t slot = kNoSlot;
  const bool owner = create_behind(
      dep, predecessors,
      [&]() -> std::uint32_t {
        // The capacity counts tasks, not slots: some slots may still wait to be given back.
        const std::uint32_t s = w > v.wait_capacity
                                    ? kNoSlot
                                    : reserve_slot(v.wait_state, v.wait_slots, reinterpret_cast<std::uint64_t>(&dep));
        if (s == kNoSlot) {
          raise_error(v, ErrorCode::waiting_overflow, static_cast<int>(q));
          return kNoSlot;
        }
        v.wait_queue[s] = static_cast<std::uint32_t>(q);
        *reinterpret_cast<typename T::Item*>(v.wait_items + std::size_t{s} * V::wait_stride) = item;
        return s;
      },
      &slot);
  if (owner) move_to_queue(v, slot, cont);
}

template <class V>
__device__ void resolve_dependency(const V& v, Dependency& dep, const Continuation* cont) {
  std::uint32_t slot = kNoSlot;
  if (resolve_counter(dep, &slot)) move_to_queue(v, slot, cont);
}

#endif  // __CUDACC__

}  // namespace apiary
