// The runtime's concurrent protocols compiled for the host and hammered by CPU
// threads: the dependency word (count and slot in one atomic, early resolves,
// exactly one owner, the right slot), waiting-storage slot reservation, and the MPMC queue (every item once,
// FIFO per producer, wrap-around, overflow detection).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <cstdint>
#include <random>
#include <thread>
#include <vector>

#include "runtime/dependency.hpp"
#include "runtime/queue.hpp"
#include "runtime/waiting_storage.hpp"

namespace apiary {
namespace {

constexpr int kThreads = 8;

TEST(DependencyProtocol, EachTaskMovesExactlyOnceAfterAllResolves) {
  for (int trial = 0; trial < 20; ++trial) {
    const int deps = 2000;
    std::vector<Dependency> d(deps);
    std::vector<int> preds(deps);
    std::vector<std::atomic<int>> resolved(deps), moved(deps), early_violations(deps);
    std::atomic<int> wrong_slot{0};
    std::vector<std::uint32_t> state(deps * 2, 0);
    struct Work {
      int dep;
      bool create;
    };
    std::vector<Work> work;
    for (int i = 0; i < deps; ++i) {
      preds[i] = i % 5;  // 0..4 predecessors, 0 means the creator owns it at once
      work.push_back({i, true});
      for (int k = 0; k < preds[i]; ++k) work.push_back({i, false});
    }
    std::mt19937 rng(trial);
    std::shuffle(work.begin(), work.end(), rng);

    std::vector<std::uint32_t> reserved(deps, kNoSlot);
    auto move = [&](int i, std::uint32_t slot) {
      if (resolved[i].load() != preds[i]) early_violations[i].fetch_add(1);
      if (slot != reserved[i]) wrong_slot.fetch_add(1);
      moved[i].fetch_add(1);
      release_slot(state.data(), slot);
    };
    std::atomic<std::size_t> next{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([&] {
        for (std::size_t w; (w = next.fetch_add(1)) < work.size();) {
          const int i = work[w].dep;
          if (work[w].create) {
            std::uint32_t slot = kNoSlot;
            const bool owner = create_behind(
                d[i], preds[i],
                [&] {
                  // Recorded before the announcement publishes it, so the mover can check it.
                  reserved[i] = reserve_slot(state.data(), static_cast<std::uint32_t>(state.size()), i);
                  return reserved[i];
                },
                &slot);
            if (owner) move(i, slot);
          } else {
            resolved[i].fetch_add(1);  // before the resolve, so the mover can check it
            std::uint32_t slot = kNoSlot;
            if (resolve_counter(d[i], &slot)) move(i, slot);
          }
        }
      });
    for (auto& th : threads) th.join();
    for (int i = 0; i < deps; ++i) {
      ASSERT_EQ(moved[i].load(), 1) << "dependency " << i << " trial " << trial;
      ASSERT_EQ(early_violations[i].load(), 0) << "moved before its last resolve: " << i;
      ASSERT_EQ(d[i].word, 0u) << "the word must return to zero for reuse";
    }
    ASSERT_EQ(wrong_slot.load(), 0) << "an owner read another slot than the creator published";
    for (auto s : state) ASSERT_EQ(s, 0u);
  }
}

TEST(DependencyProtocol, ResolvesBeforeAnnounceDriveCounterNegative) {
  Dependency d;
  std::uint32_t slot = 0;
  EXPECT_FALSE(resolve_counter(d, &slot));
  EXPECT_FALSE(resolve_counter(d, &slot));
  EXPECT_EQ(decode(d.word).count, -2);
  EXPECT_EQ(decode(d.word).slot, 0u) << "the borrow into the high half decodes away";
  // Two predecessors already resolved: the creator owns the task at once.
  EXPECT_TRUE(create_behind(d, 2, [] { return 7u; }, &slot));
  EXPECT_EQ(slot, 7u);
  EXPECT_EQ(d.word, 0u) << "the owner's call takes the slot out";
}

TEST(DependencyProtocol, LastResolveReadsTheSlotFromItsOwnAtomic) {
  for (const std::uint32_t published : {0u, 1u, 123456u, 0xfffffffeu, kNoSlot}) {
    Dependency d;
    std::uint32_t slot = 0;
    EXPECT_FALSE(resolve_counter(d, &slot));  // one early resolve
    EXPECT_FALSE(create_behind(d, 3, [&] { return published; }, &slot));
    EXPECT_EQ(decode(d.word).count, 2);
    EXPECT_EQ(decode(d.word).slot, published);
    slot = 0;
    EXPECT_FALSE(resolve_counter(d, &slot));
    EXPECT_TRUE(resolve_counter(d, &slot));
    EXPECT_EQ(slot, published);
    EXPECT_EQ(d.word, 0u) << "reusable after slot " << published;
  }
}

TEST(WaitingStorage, ConcurrentReservationsNeverShareASlot) {
  constexpr std::uint32_t capacity = 512;
  std::vector<std::uint32_t> state(capacity, 0);
  std::vector<std::atomic<int>> owner(capacity);
  for (auto& o : owner) o.store(-1);
  std::atomic<int> conflicts{0}, full{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      std::vector<std::uint32_t> mine;
      for (int round = 0; round < 20000; ++round) {
        if (mine.size() < 60) {
          const std::uint32_t s = reserve_slot(state.data(), capacity, static_cast<std::uint64_t>(round) * 31 + t);
          if (s == kNoSlot) {
            full.fetch_add(1);
            continue;
          }
          int expected = -1;
          if (!owner[s].compare_exchange_strong(expected, t)) conflicts.fetch_add(1);
          mine.push_back(s);
        } else {
          for (auto s : mine) {
            owner[s].store(-1);
            release_slot(state.data(), s);
          }
          mine.clear();
        }
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(conflicts.load(), 0);
  EXPECT_EQ(full.load(), 0) << "8 threads x 60 slots fit in 512";
}

TEST(WaitingStorage, FullStorageIsReportedNotSearchedForever) {
  std::vector<std::uint32_t> state(16, 0);
  for (int i = 0; i < 16; ++i) ASSERT_NE(reserve_slot(state.data(), 16, i), kNoSlot);
  EXPECT_EQ(reserve_slot(state.data(), 16, 99), kNoSlot);
  release_slot(state.data(), 5);
  EXPECT_EQ(reserve_slot(state.data(), 16, 99), 5u);
}

struct QueueFixture {
  explicit QueueFixture(std::uint32_t capacity) : items(capacity), seq(capacity) {
    for (std::uint32_t i = 0; i < capacity; ++i) seq[i] = i;
    view = QueueView{items.data(), seq.data(), &counters, capacity};
  }
  std::vector<std::uint64_t> items;
  std::vector<unsigned long long> seq;
  QueueCounters counters;
  QueueView view;
};

TEST(Queue, MpmcEveryItemOnceAndFifoPerProducer) {
  constexpr std::uint32_t capacity = 256;  // far fewer than the items: many laps
  constexpr int producers = 4, consumers = 4, per_producer = 50000;
  QueueFixture q(capacity);
  int abort = 0;
  std::vector<std::atomic<int>> seen(producers * per_producer);
  // position at which each item was taken, to check FIFO order per producer
  std::vector<unsigned long long> taken_at(producers * per_producer);
  std::atomic<int> overflows{0}, consumed{0};
  std::vector<std::thread> threads;
  for (int p = 0; p < producers; ++p)
    threads.emplace_back([&, p] {
      for (int k = 0; k < per_producer; ++k) {
        // Stay below capacity: this test is about ordering, not overflow.
        while (queue_fill(q.view) > capacity / 2) std::this_thread::yield();
        const std::uint64_t item = (static_cast<std::uint64_t>(p) << 32) | static_cast<std::uint32_t>(k);
        if (queue_push(q.view, item, &abort) != PushResult::ok) overflows.fetch_add(1);
      }
    });
  for (int c = 0; c < consumers; ++c)
    threads.emplace_back([&] {
      while (consumed.load() < producers * per_producer) {
        unsigned long long first = 0;
        const std::uint32_t n = queue_claim(q.view, 7, &first);
        for (std::uint32_t i = 0; i < n; ++i) {
          std::uint64_t item = 0;
          ASSERT_TRUE(queue_take(q.view, first + i, &item, &abort));
          const int id = static_cast<int>(item >> 32) * per_producer + static_cast<int>(item & 0xffffffffu);
          seen[id].fetch_add(1);
          taken_at[id] = first + i;
        }
        consumed.fetch_add(static_cast<int>(n));
        if (n == 0) std::this_thread::yield();
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(overflows.load(), 0);
  for (int id = 0; id < producers * per_producer; ++id) ASSERT_EQ(seen[id].load(), 1) << "item " << id;
  for (int p = 0; p < producers; ++p)
    for (int k = 1; k < per_producer; ++k)
      ASSERT_LT(taken_at[p * per_producer + k - 1], taken_at[p * per_producer + k]) << "producer " << p;
  EXPECT_LE(q.counters.peak, capacity);
}

// Starts `consumers` threads that claim up to 5 items at a time and take them, counting
// each in seen[item], until `total` items have been taken.
void add_consumers(std::vector<std::thread>& threads, int consumers, QueueFixture& q, int total,
                   std::vector<std::atomic<int>>& seen, int* abort) {
  auto consumed = std::make_shared<std::atomic<int>>(0);
  for (int c = 0; c < consumers; ++c)
    threads.emplace_back([&q, &seen, consumed, total, abort] {
      while (consumed->load() < total) {
        unsigned long long first = 0;
        const std::uint32_t n = queue_claim(q.view, 5, &first);
        for (std::uint32_t i = 0; i < n; ++i) {
          std::uint64_t item = 0;
          ASSERT_TRUE(queue_take(q.view, first + i, &item, abort));
          seen[static_cast<std::size_t>(item)].fetch_add(1);
        }
        consumed->fetch_add(static_cast<int>(n));
        if (n == 0) std::this_thread::yield();
      }
    });
}

// Producers reserve several positions at once and publish them in groups (the fan-out
// of enqueue_each: queue_publish_group, then queue_made_ready), across many laps of a
// small ring, while consumers claim and take: every item exactly once.
TEST(Queue, GroupPublishEveryItemOnce) {
  constexpr std::uint32_t capacity = 64;
  constexpr int producers = 4, consumers = 4, rounds = 20000, per_round = 6;
  QueueFixture q(capacity);
  int abort = 0;
  std::vector<std::atomic<int>> seen(producers * rounds * per_round);
  std::atomic<int> overflows{0};
  std::vector<std::thread> threads;
  for (int p = 0; p < producers; ++p)
    threads.emplace_back([&, p] {
      for (int k = 0; k < rounds; ++k) {
        while (queue_fill(q.view) > capacity / 2) std::this_thread::yield();
        const unsigned long long base =
            atomic_ref<unsigned long long>(q.counters.tail).fetch_add(per_round, cuda::std::memory_order_relaxed);
        unsigned published = 0;
        for (int j0 = 0; j0 < per_round; j0 += 4) {
          const int n = std::min(4, per_round - j0);
          const PublishCount r = queue_publish_group<4>(
              q.view, n, [&](int g) { return base + static_cast<unsigned long long>(j0 + g); },
              [&](int g) { return static_cast<std::uint64_t>((p * rounds + k) * per_round + j0 + g); }, &abort);
          published += r.published;
          if (r.overflow) overflows.fetch_add(1);
        }
        queue_made_ready(q.view, published, base + per_round);
      }
    });
  add_consumers(threads, consumers, q, producers * rounds * per_round, seen, &abort);
  for (auto& th : threads) th.join();
  EXPECT_EQ(overflows.load(), 0);
  for (std::size_t id = 0; id < seen.size(); ++id) ASSERT_EQ(seen[id].load(), 1) << "item " << id;
}

// Reserved positions (QueueReservation): each producer reserves its next round's
// positions a round ahead, and the other producers' items are published meanwhile, so
// consumers often claim positions that are reserved and not filled yet and wait there;
// over many laps of a small ring, every item exactly once.
TEST(Queue, ReservedPositionsFilledLaterEveryItemOnce) {
  constexpr std::uint32_t capacity = 64;
  constexpr int producers = 3, consumers = 4, rounds = 20000, per_round = 6;
  QueueFixture q(capacity);
  int abort = 0;
  std::vector<std::atomic<int>> seen(producers * rounds * per_round);
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int p = 0; p < producers; ++p)
    threads.emplace_back([&, p] {
      QueueReservation mine = queue_reserve(q.view, per_round, &abort);
      for (int k = 0; k < rounds; ++k) {
        if (mine.count != per_round) failures.fetch_add(1);
        for (unsigned i = 0; i < mine.count; ++i)
          queue_publish_reserved(q.view, mine, i, static_cast<std::uint64_t>((p * rounds + k) * per_round + i));
        queue_made_ready(q.view, mine.count, mine.first + mine.count);
        // Throttled only while it holds no unfilled reservation: a consumer may wait on
        // one, and a throttle waiting for that consumer would never end.
        while (queue_fill(q.view) > capacity / 2) std::this_thread::yield();
        if (k + 1 < rounds) mine = queue_reserve(q.view, per_round, &abort);
      }
    });
  add_consumers(threads, consumers, q, producers * rounds * per_round, seen, &abort);
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  for (std::size_t id = 0; id < seen.size(); ++id) ASSERT_EQ(seen[id].load(), 1) << "item " << id;
}

TEST(Queue, ReservingBeyondAnUnclaimedLapReportsOverflow) {
  QueueFixture q(8);
  int abort = 0;
  PushResult result = PushResult::aborted;
  const QueueReservation a = queue_reserve(q.view, 6, &abort, &result);
  EXPECT_EQ(result, PushResult::ok);
  EXPECT_EQ(a.first, 0u);
  EXPECT_EQ(a.count, 6u);
  // Positions 6 .. 9: 8 and 9 take the slots of 0 and 1, reserved and never published.
  const QueueReservation b = queue_reserve(q.view, 4, &abort, &result);
  EXPECT_EQ(result, PushResult::overflow);
  EXPECT_EQ(b.count, 0u);
}

TEST(Queue, GroupPublishIntoFullQueueReportsOverflow) {
  QueueFixture q(4);
  int abort = 0;
  const PublishCount r = queue_publish_group<4>(
      q.view, 4, [](int g) { return static_cast<unsigned long long>(2 + g); },
      [](int g) { return static_cast<std::uint64_t>(g); }, &abort);
  // Positions 2 and 3 are free; 4 and 5 hold the slots of 0 and 1, never published nor
  // claimed: overflow, not a wait.
  EXPECT_EQ(r.published, 2u);
  EXPECT_TRUE(r.overflow);
}

TEST(Queue, PushIntoFullQueueReportsOverflow) {
  QueueFixture q(8);
  int abort = 0;
  for (std::uint64_t i = 0; i < 8; ++i) ASSERT_EQ(queue_push(q.view, i, &abort), PushResult::ok);
  EXPECT_EQ(queue_push(q.view, std::uint64_t{99}, &abort), PushResult::overflow);
  EXPECT_EQ(q.counters.peak, 8u);
}

// A claim reports what it left in the queue (the megakernel sizes its next claim by
// it): the items still ready, or how far short of its want the queue fell.
TEST(Queue, ClaimReportsTheItemsLeft) {
  QueueFixture q(16);
  int abort = 0;
  for (std::uint64_t i = 0; i < 10; ++i) ASSERT_EQ(queue_push(q.view, i, &abort), PushResult::ok);
  unsigned long long first = 0;
  long long left = 0;
  ASSERT_EQ(queue_claim(q.view, 3, &first, false, &left), 3u);
  EXPECT_EQ(first, 0u);
  EXPECT_EQ(left, 7);
  ASSERT_EQ(queue_claim(q.view, 12, &first, true, &left), 7u);  // eager, deeper than the queue
  EXPECT_EQ(first, 3u);
  EXPECT_EQ(left, -5);
  EXPECT_EQ(q.counters.ready, 0);  // what it could not get went back
  EXPECT_EQ(queue_claim(q.view, 1, &first, true, &left), 0u);
  EXPECT_EQ(left, -1);
  EXPECT_EQ(q.counters.ready, 0);
}

TEST(Queue, ClaimedButUnreadSlotMakesProducerWaitNotOverflow) {
  QueueFixture q(4);
  int abort = 0;
  for (std::uint64_t i = 0; i < 4; ++i) ASSERT_EQ(queue_push(q.view, i, &abort), PushResult::ok);
  unsigned long long first = 0;
  ASSERT_EQ(queue_claim(q.view, 1, &first), 1u);  // claimed, not yet read
  std::atomic<bool> pushed{false};
  std::thread producer([&] {
    EXPECT_EQ(queue_push(q.view, std::uint64_t{4}, &abort), PushResult::ok);
    pushed = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(pushed.load());  // waits for the reader instead of overwriting
  std::uint64_t item = 0;
  ASSERT_TRUE(queue_take(q.view, first, &item, &abort));
  producer.join();
  EXPECT_TRUE(pushed.load());
  EXPECT_EQ(item, 0u);
}

// A consumer that keeps its slot after reading the item (the megakernel's waiting claim
// frees it only after the task) and is itself the producer that then needs that slot:
// the producer's before-wait hook frees it, once, and the push goes through; a push
// that finds its slot free calls no hook.
TEST(Queue, ProducerFreesTheSlotItHoldsBeforeItWaits) {
  QueueFixture q(4);
  int abort = 0;
  for (std::uint64_t i = 0; i < 4; ++i) ASSERT_EQ(queue_push(q.view, i, &abort), PushResult::ok);
  unsigned long long held = 0;
  ASSERT_EQ(queue_claim(q.view, 1, &held), 1u);
  const std::uint64_t item = static_cast<const std::uint64_t*>(q.view.items)[held];  // read, slot not freed
  EXPECT_EQ(item, 0u);
  int hooks = 0;
  const auto free_held = [&] {
    ++hooks;
    atomic_ref<unsigned long long>(q.view.seq[held]).store(held + q.view.capacity, cuda::std::memory_order_release);
  };
  EXPECT_EQ(queue_push(q.view, std::uint64_t{4}, &abort, free_held), PushResult::ok);
  EXPECT_EQ(hooks, 1);
  std::uint64_t got = 0;
  ASSERT_EQ(queue_claim(q.view, 1, &held), 1u);
  ASSERT_TRUE(queue_take(q.view, held, &got, &abort));
  EXPECT_EQ(got, 1u);
  EXPECT_EQ(queue_wait_free(q.view, 5, &abort, free_held), PushResult::ok);  // slot 1: free already
  EXPECT_EQ(hooks, 1);
}

TEST(Queue, AbortEndsAWaitingConsumer) {
  QueueFixture q(4);
  int abort = 0;
  // A producer reserved position 0 and overflowed without writing it, while a later
  // position was published: the consumer that claims 0 must leave when the run aborts.
  q.counters.tail = 2;
  q.counters.ready = 1;
  unsigned long long first = 0;
  ASSERT_EQ(queue_claim(q.view, 1, &first), 1u);
  std::thread setter([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    atomic_ref<int>(abort).store(1);
  });
  std::uint64_t item = 0;
  EXPECT_FALSE(queue_take(q.view, first, &item, &abort));
  setter.join();
}

// A waiting claim (schedulers/megakernel.cuh) takes a position from `head` before its
// item exists, and can do so between an ordinary claim's count and its `head`. Here in
// the order that leaves the ordinary claim without an item: one item published
// (position 0); the waiting block's `head` first (it gets 0), then the ordinary claim
// (it counts the one ready item and gets position 1), then the waiting block's count.
// Nothing publishes position 1 once the run has ended: the take must leave when `done`
// is set, or its block never ends and neither does the megakernel (session 20's hang).
TEST(Queue, TakeEndsWhenTheRunEndsBeforeItsItemIsPublished) {
  QueueFixture q(4);
  int abort = 0, done = 0;
  ASSERT_EQ(queue_push(q.view, std::uint64_t{7}, &abort), PushResult::ok);
  const unsigned long long waiting = atomic_ref<unsigned long long>(q.counters.head).fetch_add(1);
  unsigned long long ordinary = 0;
  ASSERT_EQ(queue_claim(q.view, 1, &ordinary), 1u);
  atomic_ref<long long>(q.counters.ready).fetch_sub(1);
  EXPECT_EQ(waiting, 0u);
  EXPECT_EQ(ordinary, 1u);
  std::uint64_t item = 0;
  ASSERT_TRUE(queue_take(q.view, waiting, &item, &abort, &done));
  EXPECT_EQ(item, 7u);
  std::thread ender([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    atomic_ref<int>(done).store(1);
  });
  EXPECT_FALSE(queue_take(q.view, ordinary, &item, &abort, &done));
  ender.join();
}

}  // namespace
}  // namespace apiary
