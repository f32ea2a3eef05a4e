// Per-type device queue: a bounded multi-producer multi-consumer FIFO ring.
//
// Every slot carries a sequence number (Vyukov's bounded MPMC queue): a producer that
// reserved position p may write slot p % capacity once its sequence reads p; it
// publishes by storing p + 1. A consumer that reserved p waits for p + 1, reads, and
// frees the slot for the next lap by storing p + capacity.
//
// Nothing retries under contention: producers reserve with one fetch_add on the tail;
// consumers first reserve a count against `ready` (items published and not yet
// claimed) with one fetch_sub, hand back what they could not get, then take their
// positions with one fetch_add on the head. (A CAS loop on the head collapsed to
// about one claim per 1.5 us with a thousand blocks polling on an H200.)
//
// `ready` is a count, not a hand-over: the items travel by their sequence numbers
// (release by the producer, acquire by the consumer in queue_take), so producers raise
// it with relaxed order. A release there made the producer wait for its sequence stores
// before the count went up; relaxed, a Jacobi iteration of 20 to 200 row tasks, each
// released by one fan-out, took 2-4% less time (H200, session 18).
//
// A producer that finds its slot still holding an item that no consumer has reserved
// has overflowed the queue: it reports that instead of waiting (a wait could hang).
// Everything is written for host and device so the protocol runs in CPU stress tests.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/portable.hpp"

namespace apiary {

// Words that different parties update keep this far apart: atomics on words of one
// 256-byte block contend in the memory system (runtime/runtime.cuh: RunState).
inline constexpr std::size_t kCounterSpacing = 256;

// A queue's counters, each group of words on its own 256-byte block: `ready` is read by
// every idle consumer's poll and updated by claims and producers, `head` by claims,
// `tail` and `peak` by producers, `executed` by the end of every batch. In one block, the
// polls and the end-of-batch updates delayed the claims.
struct QueueCounters {
  // Published minus claimed positions: dips below 0 briefly, and stays below 0 while
  // megakernel blocks wait on positions they claimed ahead (waiting claims).
  alignas(kCounterSpacing) long long ready = 0;
  alignas(kCounterSpacing) unsigned long long head = 0;  // next position to hand to a consumer
  alignas(kCounterSpacing) unsigned long long tail = 0;  // next position to hand to a producer
  unsigned long long peak = 0;                            // highest fill seen by a producer
  alignas(kCounterSpacing) unsigned long long executed = 0;  // tasks completed from this queue (statistics)
};
static_assert(sizeof(QueueCounters) == 4 * kCounterSpacing, "QueueCounters: four groups of words, a block each");

struct QueueView {
  void* items = nullptr;               // capacity work items
  unsigned long long* seq = nullptr;   // capacity sequence numbers
  QueueCounters* counters = nullptr;
  std::uint32_t capacity = 0;          // a power of two
};

enum class PushResult { ok, overflow, aborted };

// What a producer does once before it first waits for a slot: nothing, unless its
// caller says otherwise (the megakernel frees the slot of its block's own running task
// then: see free_held_position in runtime/device_view.cuh).
struct NothingBeforeWait {
  APIARY_HD void operator()() const {}
};

// Waits until the slot of position `pos`, reserved from the tail, is free for its lap
// (acquire: a consumer of the previous lap may still be reading it), polling `abort` so
// that a failed run never spins forever; reports an overflow instead when nobody has
// claimed the previous lap's item yet. Calls before_wait() once before it first waits.
template <class BeforeWait = NothingBeforeWait>
APIARY_HD PushResult queue_wait_free(const QueueView& q, unsigned long long pos, const int* abort,
                                     BeforeWait&& before_wait = {}) {
  using u64 = unsigned long long;
  atomic_ref<u64> seq(q.seq[pos & (q.capacity - 1)]);
  for (bool first = true; seq.load(cuda::std::memory_order_acquire) != pos; first = false) {
    const u64 head = atomic_ref<u64>(q.counters->head).load(cuda::std::memory_order_relaxed);
    // The previous lap's item is still there and no consumer has claimed it: full.
    if (head + q.capacity <= pos) return PushResult::overflow;
    if (abort != nullptr && atomic_ref<const int>(*abort).load(cuda::std::memory_order_relaxed) != 0)
      return PushResult::aborted;
    if (first) before_wait();
    spin_pause();  // a consumer has claimed it and is reading it right now (or runs its task)
  }
  return PushResult::ok;
}

// Publishes `item` at position `pos`, reserved from the tail, once its slot is free
// (queue_wait_free).
template <class Item, class BeforeWait = NothingBeforeWait>
APIARY_HD PushResult queue_publish(const QueueView& q, unsigned long long pos, const Item& item, const int* abort,
                                   BeforeWait&& before_wait = {}) {
  const PushResult free = queue_wait_free(q, pos, abort, before_wait);
  if (free != PushResult::ok) return free;
  static_cast<Item*>(q.items)[pos & (q.capacity - 1)] = item;
  atomic_ref<unsigned long long>(q.seq[pos & (q.capacity - 1)]).store(pos + 1, cuda::std::memory_order_release);
  return PushResult::ok;
}

// Reserved positions (QueueReservation): a producer that knows how many items it will
// publish before it knows the items takes their positions from the tail and waits for
// their slots to be free ahead of time; publishing them later is only the writes
// (queue_publish_reserved). A consumer that claims a reserved position waits until it
// is filled, so a reservation must be filled before anything that such a wait could
// hold up, or be left unfilled only when the run ends (nothing waits for it then).
struct QueueReservation {
  unsigned long long first = 0;
  unsigned count = 0;  // 0: nothing reserved (an overflow, or an aborted run)
};

// Reserves `count` positions and waits until their slots are free. One caller; the
// device code does the same per warp (reserve_positions in device_view.cuh).
APIARY_HD inline QueueReservation queue_reserve(const QueueView& q, unsigned count, const int* abort,
                                                PushResult* result = nullptr) {
  QueueReservation r;
  r.first = atomic_ref<unsigned long long>(q.counters->tail).fetch_add(count, cuda::std::memory_order_relaxed);
  for (unsigned i = 0; i < count; ++i) {
    const PushResult free = queue_wait_free(q, r.first + i, abort);
    if (free != PushResult::ok) {
      if (result != nullptr) *result = free;
      return QueueReservation{r.first, 0};
    }
  }
  r.count = count;
  if (result != nullptr) *result = PushResult::ok;
  return r;
}

// Publishes item i of a reservation whose slots were found free by its reserver (and
// this producer is ordered after that reserver: the reservation reached it through
// memory with release/acquire, or it is the reserver).
template <class Item>
APIARY_HD void queue_publish_reserved(const QueueView& q, const QueueReservation& r, unsigned i, const Item& item) {
  const unsigned long long pos = r.first + i;
  static_cast<Item*>(q.items)[pos & (q.capacity - 1)] = item;
  atomic_ref<unsigned long long>(q.seq[pos & (q.capacity - 1)]).store(pos + 1, cuda::std::memory_order_release);
}

// What queue_publish_group did with its items.
struct PublishCount {
  unsigned published = 0;
  bool overflow = false;
};

// Publishes n <= G items, item g = make(g) at position pos(g), for a producer with
// several to publish (a fan-out): the same as n calls of queue_publish, in about two
// memory round trips rather than two per item. The slots' sequence numbers are read
// together (relaxed loads, then one acquire fence: each read that finds its slot free
// synchronises with the consumer that freed it), the items written, and after one
// release fence their sequence numbers stored. A slot not free yet goes through
// queue_publish, which waits for it or reports the overflow.
template <int G, class Pos, class Make, class BeforeWait = NothingBeforeWait>
APIARY_HD PublishCount queue_publish_group(const QueueView& q, int n, Pos&& pos, Make&& make, const int* abort,
                                           BeforeWait&& before_wait = {}) {
  using u64 = unsigned long long;
  using Item = decltype(make(0));
  PublishCount r;
  if (n == 1) {  // one item: an acquire load and a release store, not two fences
    const PushResult one = queue_publish(q, pos(0), make(0), abort, before_wait);
    r.published = one == PushResult::ok ? 1u : 0u;
    r.overflow = one == PushResult::overflow;
    return r;
  }
  const u64 mask = q.capacity - 1;
  u64 seen[G];
APIARY_UNROLL
  for (int g = 0; g < G; ++g)
    seen[g] = g < n ? atomic_ref<u64>(q.seq[pos(g) & mask]).load(cuda::std::memory_order_relaxed) : 0;
  cuda::atomic_thread_fence(cuda::std::memory_order_acquire, cuda::thread_scope_device);
APIARY_UNROLL
  for (int g = 0; g < G; ++g)
    if (g < n && seen[g] == pos(g)) static_cast<Item*>(q.items)[pos(g) & mask] = make(g);
  cuda::atomic_thread_fence(cuda::std::memory_order_release, cuda::thread_scope_device);
APIARY_UNROLL
  for (int g = 0; g < G; ++g) {
    if (g >= n) continue;
    if (seen[g] == pos(g)) {
      atomic_ref<u64>(q.seq[pos(g) & mask]).store(pos(g) + 1, cuda::std::memory_order_relaxed);
      ++r.published;
    } else {
      const PushResult one = queue_publish(q, pos(g), make(g), abort, before_wait);
      r.published += one == PushResult::ok ? 1u : 0u;
      r.overflow = r.overflow || one == PushResult::overflow;
    }
  }
  return r;
}

// After `count` items were published: makes them claimable and records the fill up to
// position `end` (one past the last of them) for the statistics.
APIARY_HD inline void queue_made_ready(const QueueView& q, unsigned count, unsigned long long end) {
  using u64 = unsigned long long;
  atomic_ref<long long>(q.counters->ready).fetch_add(count, cuda::std::memory_order_relaxed);
  const u64 head = atomic_ref<u64>(q.counters->head).load(cuda::std::memory_order_relaxed);
  const u64 fill = end > head ? end - head : 0;
  atomic_ref<u64> peak(q.counters->peak);
  if (peak.load(cuda::std::memory_order_relaxed) < fill) peak.fetch_max(fill, cuda::std::memory_order_relaxed);
}

// One item: reserve a position, publish, make it claimable. The steps of queue_publish
// and queue_made_ready, written out on purpose: built from calls to them, the generic
// eleven_types program with phases took 1.09 ms instead of 0.94 ms (H100, session 9; a
// difference of code generation that was not pinned down).
template <class Item, class BeforeWait = NothingBeforeWait>
APIARY_HD PushResult queue_push(const QueueView& q, const Item& item, const int* abort,
                                BeforeWait&& before_wait = {}) {
  using u64 = unsigned long long;
  const u64 mask = q.capacity - 1;
  const u64 pos = atomic_ref<u64>(q.counters->tail).fetch_add(1, cuda::std::memory_order_relaxed);
  atomic_ref<u64> seq(q.seq[pos & mask]);
  u64 head = 0;
  for (bool first = true; seq.load(cuda::std::memory_order_acquire) != pos; first = false) {
    head = atomic_ref<u64>(q.counters->head).load(cuda::std::memory_order_relaxed);
    // The previous lap's item is still there and no consumer has claimed it: full.
    if (head + q.capacity <= pos) return PushResult::overflow;
    if (abort != nullptr && atomic_ref<const int>(*abort).load(cuda::std::memory_order_relaxed) != 0)
      return PushResult::aborted;
    if (first) before_wait();
    spin_pause();  // a consumer has claimed it and is reading it right now (or runs its task)
  }
  static_cast<Item*>(q.items)[pos & mask] = item;
  seq.store(pos + 1, cuda::std::memory_order_release);
  atomic_ref<long long>(q.counters->ready).fetch_add(1, cuda::std::memory_order_relaxed);

  head = atomic_ref<u64>(q.counters->head).load(cuda::std::memory_order_relaxed);
  const u64 fill = pos + 1 > head ? pos + 1 - head : 0;
  atomic_ref<u64> peak(q.counters->peak);
  if (peak.load(cuda::std::memory_order_relaxed) < fill) peak.fetch_max(fill, cuda::std::memory_order_relaxed);
  return PushResult::ok;
}

// Claims up to `want` consecutive positions; returns how many, the first in *first.
// Every claimed position has been or is being published, so queue_take waits only
// for a producer that is mid-write (its sequence stores may still be on their way when
// the count it raised is seen) — except beside waiting claims (schedulers/megakernel.cuh),
// which take positions from `head` before their items exist: one of them can take the
// position between this claim's count and its `head`, and this claim then gets the next
// one, which a later publication fills, or nothing does when the run ends meanwhile
// (queue_take's `done`). `eager` skips the load that keeps idle pollers off
// the counter's RMW, for a consumer that saw more work left at its last claim (`*left`:
// the items still ready after this claim, at most 0 when none) and saves a memory
// round trip.
// `seen_ready`, unless kReadyNotRead, is a relaxed read of `ready` that the caller made
// already (together with other loads, to save the round trip); it stands for that load.
inline constexpr long long kReadyNotRead = -(1ll << 62);
APIARY_HD inline std::uint32_t queue_claim(const QueueView& q, std::uint32_t want, unsigned long long* first,
                                           bool eager = false, long long* left = nullptr,
                                           long long seen_ready = kReadyNotRead) {
  atomic_ref<long long> ready(q.counters->ready);
  if (!eager) {  // cheap test before any RMW
    const long long seen =
        seen_ready != kReadyNotRead ? seen_ready : ready.load(cuda::std::memory_order_relaxed);
    if (seen <= 0) return 0;
  }
  const long long had = ready.fetch_sub(want, cuda::std::memory_order_relaxed);
  const long long got = had <= 0 ? 0 : (had < static_cast<long long>(want) ? had : want);
  if (left != nullptr) *left = had - static_cast<long long>(want);
  if (got < static_cast<long long>(want)) ready.fetch_add(want - got, cuda::std::memory_order_relaxed);
  if (got == 0) return 0;
  *first = atomic_ref<unsigned long long>(q.counters->head).fetch_add(static_cast<unsigned long long>(got),
                                                                      cuda::std::memory_order_relaxed);
  return static_cast<std::uint32_t>(got);
}

// Reads the item at a claimed position (waiting for its producer to publish it) and
// frees the slot. False when the run was aborted, or (`done`, may be null) ended, while
// waiting: a run that has ended publishes nothing more, and the position stays unused.
template <class Item>
APIARY_HD bool queue_take(const QueueView& q, unsigned long long pos, Item* out, const int* abort,
                          const int* done = nullptr) {
  const unsigned long long mask = q.capacity - 1;
  atomic_ref<unsigned long long> seq(q.seq[pos & mask]);
  while (seq.load(cuda::std::memory_order_acquire) != pos + 1) {
    if (abort != nullptr && atomic_ref<const int>(*abort).load(cuda::std::memory_order_relaxed) != 0)
      return false;
    if (done != nullptr && atomic_ref<const int>(*done).load(cuda::std::memory_order_relaxed) != 0) return false;
    spin_pause();
  }
  *out = static_cast<const Item*>(q.items)[pos & mask];
  seq.store(pos + q.capacity, cuda::std::memory_order_release);
  return true;
}

APIARY_HD inline unsigned long long queue_fill(const QueueView& q) {
  using u64 = unsigned long long;
  const u64 head = atomic_ref<u64>(q.counters->head).load(cuda::std::memory_order_relaxed);
  const u64 tail = atomic_ref<u64>(q.counters->tail).load(cuda::std::memory_order_relaxed);
  return tail > head ? tail - head : 0;
}

}  // namespace apiary
