// Queue behaviour on the device: every item exactly once under heavy contention (also
// through enqueue_each), and overflow reported with the queue's name and capacity.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "schedulers/run.cuh"
#include "tests/runtime/scheduler_param.hpp"

namespace apiary {
namespace {

using apiary::testing::SchedulerTest;

struct FanEnv {
  int fan_out = 0;
  unsigned hops = 0;
  unsigned* seen = nullptr;  // one counter per sink item
};

// Each Source task pushes fan_out Sink items; all sources run at once, so thousands
// of threads push into one queue while blocks pop from it.
struct Sink {
  using Item = unsigned;
  static constexpr int threads = 1;
  static constexpr int shared_bytes = 0;
  template <class Ctx>
  __device__ static void execute(const Item& id, Ctx& ctx) {
    atomicAdd(&ctx.env().seen[id], 1u);
  }
};
// Together: enqueue_each, whose warps share one reservation. Threads: the source's
// worker size (enqueue_each item by item below a warp, per warp from a warp on).
template <bool Together, int Threads = 32>
struct SourceOf {
  using Item = unsigned;
  static constexpr int threads = Threads;
  static constexpr int shared_bytes = 0;
  template <class Ctx>
  __device__ static void execute(const Item& source, Ctx& ctx) {
    const int fan = ctx.env().fan_out;
    if constexpr (Together) {
      ctx.template enqueue_each<Sink>(fan, [&](int k) { return source * fan + k; });
    } else {
      for (int k = ctx.rank(); k < fan; k += Ctx::size()) ctx.template enqueue<Sink>(source * fan + k);
    }
  }
};
using Source = SourceOf<false>;
using SourceTogether = SourceOf<true>;
using SourceTogether128 = SourceOf<true, 128>;
using SourceTogether8 = SourceOf<true, 8>;
using FanProgram = Program<Phaseless<Source, Sink>>;

class QueueGpu : public SchedulerTest {};

// Runs `rt`, which must fail with an overflow; returns the error's message ("" and a
// test failure when it does not).
template <class R>
std::string overflow_message(R& rt, Scheduler scheduler) {
  try {
    rt.run(scheduler);
  } catch (const OverflowError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected an overflow";
  return "";
}

TEST_P(QueueGpu, EveryItemExactlyOnceUnderContention) {
  const unsigned sources = apiary::testing::scaled(4096);
  const int fan = 256;
  DeviceBuffer<unsigned> seen(sources * fan);
  seen.fill_zero();
  RunOptions opt;
  opt.queue_capacity = sources * fan;  // all sources may run before any sink
  Runtime<FanProgram, FanEnv> rt(opt, FanEnv{fan, 0, seen.data()});
  std::vector<unsigned> ids(sources);
  for (unsigned i = 0; i < sources; ++i) ids[i] = i;
  rt.seed<Source>(ids);
  const RunStats s = rt.run(GetParam());
  const auto counts = seen.to_host();
  std::size_t wrong = 0;
  for (unsigned c : counts) wrong += c != 1;
  EXPECT_EQ(wrong, 0u);
  EXPECT_EQ(s.types[FanProgram::queue_of<Sink>].executed, std::uint64_t{sources} * fan);
  EXPECT_EQ(s.types[FanProgram::queue_of<Source>].executed, sources);
  EXPECT_LE(s.types[FanProgram::queue_of<Sink>].peak_fill, s.types[FanProgram::queue_of<Sink>].capacity);
}

// enqueue_each: every item once, under contention, with partial warps (a fan-out of 100
// from 32 threads leaves 4 lanes in the last round; from 128 threads, warps of 32, 32, 32
// and 4 items), from tasks below a warp, phaseless and with the sinks in a phase of their
// own (the warps count them all into the phase: it must not end early).
template <class P, class S>
void fan_out_each(Scheduler scheduler, unsigned sources, int fan) {
  DeviceBuffer<unsigned> seen(sources * static_cast<unsigned>(fan));
  seen.fill_zero();
  RunOptions opt;
  opt.queue_capacity = sources * static_cast<unsigned>(fan);
  Runtime<P, FanEnv> rt(opt, FanEnv{fan, 0, seen.data()});
  std::vector<unsigned> ids(sources);
  for (unsigned i = 0; i < sources; ++i) ids[i] = i;
  rt.template seed<S>(ids);
  const RunStats s = rt.run(scheduler);
  const auto counts = seen.to_host();
  std::size_t wrong = 0;
  for (unsigned c : counts) wrong += c != 1;
  EXPECT_EQ(wrong, 0u);
  const auto sink = P::template queue_of<Sink>;
  EXPECT_EQ(s.types[sink].executed, std::uint64_t{sources} * static_cast<unsigned>(fan));
  EXPECT_EQ(s.types[P::template queue_of<S>].executed, sources);
  EXPECT_GE(s.types[sink].peak_fill, 1u);
  EXPECT_LE(s.types[sink].peak_fill, s.types[sink].capacity);
}

TEST_P(QueueGpu, EnqueueEachEveryItemExactlyOnce) {
  fan_out_each<Program<Phaseless<SourceTogether, Sink>>, SourceTogether>(GetParam(), apiary::testing::scaled(4096),
                                                                          256);
  fan_out_each<Program<Phaseless<SourceTogether, Sink>>, SourceTogether>(GetParam(), apiary::testing::scaled(1024),
                                                                          100);
  fan_out_each<Program<Phaseless<SourceTogether128, Sink>>, SourceTogether128>(GetParam(),
                                                                                apiary::testing::scaled(1024), 100);
  fan_out_each<Program<Phaseless<SourceTogether8, Sink>>, SourceTogether8>(GetParam(), apiary::testing::scaled(1024),
                                                                            100);
}

TEST_P(QueueGpu, EnqueueEachCountsIntoTheNextPhase) {
  using P = Program<Phase<SourceTogether128>, Phase<Sink>>;
  fan_out_each<P, SourceTogether128>(GetParam(), apiary::testing::scaled(1024), 100);
  fan_out_each<P, SourceTogether128>(GetParam(), 3, 1);  // one item: warps with none
}

// 1024 relays each hop 500 times (fewer when quick) through a queue of 2048 slots: the ring wraps
// hundreds of times while at most one item per relay is live.
struct Relay {
  using Item = unsigned;  // relay id in the low 16 bits, hop count above
  static constexpr int threads = 1;
  static constexpr int shared_bytes = 0;
  template <class Ctx>
  __device__ static void execute(const Item& item, Ctx& ctx) {
    const unsigned relay = item & 0xffffu, hop = item >> 16;
    atomicAdd(&ctx.env().seen[relay], 1u);
    if (hop + 1 < ctx.env().hops) ctx.template enqueue<Relay>(((hop + 1) << 16) | relay);
  }
};

TEST_P(QueueGpu, RingWrapsAroundManyTimes) {
  DeviceBuffer<unsigned> seen(1024);
  seen.fill_zero();
  RunOptions opt;
  opt.queue_capacity = 2048;
  const unsigned hops = apiary::testing::scaled(500);
  Runtime<Program<Phaseless<Relay>>, FanEnv> rt(opt, FanEnv{0, hops, seen.data()});
  std::vector<unsigned> ids(1024);
  for (unsigned i = 0; i < 1024; ++i) ids[i] = i;
  rt.seed<Relay>(ids);
  const RunStats s = rt.run(GetParam());
  for (unsigned c : seen.to_host()) ASSERT_EQ(c, hops);
  EXPECT_EQ(s.total_tasks(), 1024u * hops);
  EXPECT_LE(s.types[0].peak_fill, 2048u);
}

// Statistics of how each scheduler ran the program: the megakernel is one launch; the
// kernel-launching schedulers count their rounds (generations) and worker launches.
TEST_P(QueueGpu, StatisticsCountRoundsAndLaunches) {
  DeviceBuffer<unsigned> seen(1024);
  seen.fill_zero();
  RunOptions opt;
  opt.queue_capacity = 2048;
  const unsigned hops = 20;
  Runtime<Program<Phaseless<Relay>>, FanEnv> rt(opt, FanEnv{0, hops, seen.data()});
  std::vector<unsigned> ids(1024);
  for (unsigned i = 0; i < 1024; ++i) ids[i] = i;
  rt.seed<Relay>(ids);
  const RunStats s = rt.run(GetParam());
  EXPECT_EQ(s.total_tasks(), 1024u * hops);
  if (GetParam() == Scheduler::megakernel) {
    EXPECT_EQ(s.launches, 1u);
    EXPECT_EQ(s.rounds, 0u);
  } else {
    EXPECT_GE(s.rounds, 1u);
    EXPECT_GE(s.launches, 1u);
    EXPECT_GE(s.blocks, 1);
    EXPECT_EQ(s.threads_per_block, 256);  // 256 one-thread Relay tasks per worker block
  }
}

// The time-sliced scheduler without draining: each worker block claims one batch, the
// round's grid covers exactly the relays queued at its start (claims are FIFO), and each
// relay's next hop waits for the next round: one round and one launch per hop.
TEST(Timesliced, WithoutDrainingEveryRoundRunsOneHopPerRelay) {
  APIARY_REQUIRE_GPU();
  DeviceBuffer<unsigned> seen(1024);
  seen.fill_zero();
  RunOptions opt;
  opt.queue_capacity = 2048;
  opt.drain_microseconds = 0;
  const unsigned hops = 30;
  Runtime<Program<Phaseless<Relay>>, FanEnv> rt(opt, FanEnv{0, hops, seen.data()});
  std::vector<unsigned> ids(1024);
  for (unsigned i = 0; i < 1024; ++i) ids[i] = i;
  rt.seed<Relay>(ids);
  const RunStats s = rt.run(Scheduler::timesliced);
  for (unsigned c : seen.to_host()) ASSERT_EQ(c, hops);
  EXPECT_EQ(s.rounds, hops);
  EXPECT_EQ(s.launches, hops);
  EXPECT_EQ(s.blocks, 4);  // 1024 relays / 256 per block
  EXPECT_EQ(s.types[0].peak_fill, 1024u);
}

TEST_P(QueueGpu, OverflowIsReportedWithQueueAndCapacity) {
  DeviceBuffer<unsigned> seen(64 * 4096);
  seen.fill_zero();
  RunOptions opt;
  opt.queue_capacity = 1024;
  // Keep the consumers out of the way: Sink is in a later phase, so it cannot drain.
  using P = Program<Phase<Source>, Phase<Sink>>;
  Runtime<P, FanEnv> rt(opt, FanEnv{4096, 0, seen.data()});
  std::vector<unsigned> ids(64);
  for (unsigned i = 0; i < 64; ++i) ids[i] = i;
  rt.seed<Source>(ids);
  const std::string msg = overflow_message(rt, GetParam());
  EXPECT_NE(msg.find("Sink"), std::string::npos) << msg;
  EXPECT_NE(msg.find("1024"), std::string::npos) << msg;
  // The same with enqueue_each, whose warps reserve their positions at once.
  using PT = Program<Phase<SourceTogether>, Phase<Sink>>;
  Runtime<PT, FanEnv> together(opt, FanEnv{4096, 0, seen.data()});
  together.seed<SourceTogether>(ids);
  const std::string msg_together = overflow_message(together, GetParam());
  EXPECT_NE(msg_together.find("Sink"), std::string::npos) << msg_together;
  EXPECT_NE(msg_together.find("1024"), std::string::npos) << msg_together;
  // The runtime stays usable after an error: the next run starts clean.
  Runtime<FanProgram, FanEnv> ok(RunOptions{}, FanEnv{4, 0, seen.data()});
  ok.seed<Source>(ids);
  EXPECT_EQ(ok.run(GetParam()).total_tasks(), 64u + 64u * 4u);
}

TEST_P(QueueGpu, SeedingBeyondCapacityIsRefused) {
  RunOptions opt;
  opt.queue_capacity = 16;
  Runtime<FanProgram, FanEnv> rt(opt);
  std::vector<unsigned> ids(17, 0);
  rt.seed<Sink>(ids);
  EXPECT_THROW(rt.run(GetParam()), OverflowError);
}

// Seeds reach the device intact whatever their item size (a run copies them from
// mapped host memory in 16-byte words, then the tail bytes), for several types at once,
// and every run of one Runtime starts from its own seeds only.
struct SeedEnv {
  unsigned* seen = nullptr;  // per id: runs of a task with that id
  unsigned* bad = nullptr;   // items whose payload did not match their id
};
struct Tiny {  // 3 bytes: no 16-byte word is whole
  unsigned char lo, hi, check;
};
struct Wide {  // 20 bytes
  unsigned id;
  unsigned payload[4];
};
constexpr unsigned kWideBase = 1u << 16;  // Wide ids follow the Tiny ids
struct TinyTask {
  using Item = Tiny;
  static constexpr int threads = 1;
  static constexpr int shared_bytes = 0;
  template <class Ctx>
  __device__ static void execute(const Item& t, Ctx& ctx) {
    const unsigned id = t.lo | t.hi << 8;
    if (t.check != static_cast<unsigned char>(id * 7 + 1)) atomicAdd(ctx.env().bad, 1u);
    atomicAdd(&ctx.env().seen[id], 1u);
  }
};
struct WideTask {
  using Item = Wide;
  static constexpr int threads = 32;
  static constexpr int shared_bytes = 0;
  template <class Ctx>
  __device__ static void execute(const Item& w, Ctx& ctx) {
    if (ctx.rank() != 0) return;
    for (unsigned k = 0; k < 4; ++k)
      if (w.payload[k] != w.id * 31 + k) atomicAdd(ctx.env().bad, 1u);
    atomicAdd(&ctx.env().seen[kWideBase + w.id], 1u);
  }
};

TEST_P(QueueGpu, SeedsOfEverySizeArriveIntactInEveryRun) {
  DeviceBuffer<unsigned> seen(2 * kWideBase);
  DeviceBuffer<unsigned> bad(1);
  RunOptions opt;
  opt.queue_capacity = kWideBase;
  using P = Program<Phaseless<TinyTask, WideTask>>;
  Runtime<P, SeedEnv> rt(opt, SeedEnv{seen.data(), bad.data()});
  for (const unsigned count : {1u, 5u, 16u, 1000u, 3u, 40000u, 0u, 7u}) {
    seen.fill_zero();
    bad.fill_zero();
    std::vector<Tiny> tiny(count);
    std::vector<Wide> wide(count / 2 + 1);
    for (unsigned i = 0; i < count; ++i)
      tiny[i] = Tiny{static_cast<unsigned char>(i), static_cast<unsigned char>(i >> 8),
                     static_cast<unsigned char>(i * 7 + 1)};
    for (unsigned i = 0; i < wide.size(); ++i) wide[i] = Wide{i, {i * 31, i * 31 + 1, i * 31 + 2, i * 31 + 3}};
    rt.seed<TinyTask>(tiny);
    rt.seed<WideTask>(wide);
    const RunStats s = rt.run(GetParam());
    EXPECT_EQ(s.types[P::queue_of<TinyTask>].executed, count) << count;
    EXPECT_EQ(s.types[P::queue_of<WideTask>].executed, wide.size()) << count;
    EXPECT_EQ(bad.to_host()[0], 0u) << count;
    const std::vector<unsigned> runs = seen.to_host();
    std::size_t wrong = 0;
    for (unsigned id = 0; id < kWideBase; ++id) wrong += runs[id] != (id < count ? 1u : 0u);
    for (unsigned id = 0; id < kWideBase; ++id) wrong += runs[kWideBase + id] != (id < wide.size() ? 1u : 0u);
    EXPECT_EQ(wrong, 0u) << count;
  }
}

// A deep queue of tasks that fill a block and use its shared memory: the megakernel claims
// up to four of them at once and runs them one after another in the same shared memory
// (claim_work: deep claims). Each task writes its own pattern there and checks a
// neighbour's entry after its barrier: a task that started before the previous one of
// its block was done with the memory would see another task's pattern.
struct BlockTask {
  using Item = unsigned;
  static constexpr int threads = 256;
  static constexpr int shared_bytes = 256 * sizeof(unsigned);
  template <class Ctx>
  __device__ static void execute(const Item& id, Ctx& ctx) {
    unsigned* mine = ctx.template shared_as<unsigned>();
    const int r = ctx.rank();
    mine[r] = id * 256u + static_cast<unsigned>(r);
    ctx.sync();
    const int other = (r + 97) % 256;
    if (mine[other] != id * 256u + static_cast<unsigned>(other)) atomicAdd(ctx.env().bad, 1u);
    if (r == 0) atomicAdd(&ctx.env().seen[id], 1u);
  }
};

TEST_P(QueueGpu, DeepQueueOfBlockWideTasksRunsEachOnceInItsOwnSharedMemory) {
  const unsigned count = apiary::testing::scaled(50000);
  DeviceBuffer<unsigned> seen(count);
  DeviceBuffer<unsigned> bad(1);
  seen.fill_zero();
  bad.fill_zero();
  RunOptions opt;
  opt.queue_capacity = count;
  using P = Program<Phaseless<BlockTask>>;
  Runtime<P, SeedEnv> rt(opt, SeedEnv{seen.data(), bad.data()});
  std::vector<unsigned> ids(count);
  for (unsigned i = 0; i < count; ++i) ids[i] = i;
  rt.seed<BlockTask>(ids);
  const RunStats s = rt.run(GetParam());
  EXPECT_EQ(s.types[0].executed, count);
  EXPECT_EQ(bad.to_host()[0], 0u);
  std::size_t wrong = 0;
  for (unsigned c : seen.to_host()) wrong += c != 1;
  EXPECT_EQ(wrong, 0u);
}

// A run that fails while blocks hold deep claims ends with the error, and the runtime
// runs the next program cleanly: block task 1000 of a deep queue pushes more Sink items
// than Sink's queue holds, and Sink is a later phase, so nothing drains it meanwhile.
struct OverflowingBlockTask {
  using Item = unsigned;
  static constexpr int threads = 256;
  static constexpr int shared_bytes = 0;
  template <class Ctx>
  __device__ static void execute(const Item& id, Ctx& ctx) {
    if (id == 1000) ctx.template enqueue_each<Sink>(4096, [](int k) { return static_cast<unsigned>(k); });
  }
};

TEST_P(QueueGpu, OverflowWhileBlocksHoldDeepClaimsIsReported) {
  const unsigned count = apiary::testing::scaled(50000, 2000);
  DeviceBuffer<unsigned> seen(4096);
  seen.fill_zero();
  using P = Program<Phase<OverflowingBlockTask>, Phase<Sink>>;
  Runtime<P, FanEnv> rt(RunOptions{}, FanEnv{0, 0, seen.data()});
  rt.set_queue_capacity<OverflowingBlockTask>(count);
  rt.set_queue_capacity<Sink>(1024);
  std::vector<unsigned> ids(count);
  for (unsigned i = 0; i < count; ++i) ids[i] = i;
  rt.seed<OverflowingBlockTask>(ids);
  const std::string msg = overflow_message(rt, GetParam());
  EXPECT_NE(msg.find("Sink"), std::string::npos) << msg;
  Runtime<FanProgram, FanEnv> ok(RunOptions{}, FanEnv{4, 0, seen.data()});
  const std::vector<unsigned> sources{0, 1, 2};
  ok.seed<Source>(sources);
  EXPECT_EQ(ok.run(GetParam()).total_tasks(), 3u + 3u * 4u);
}

// Waiting claims (schedulers/megakernel.cuh): in a program of one phaseless type whose
// tasks fill a block, an idle megakernel block claims the queue's next position before
// its item exists. Waves of `width` tasks, each started at once by the last task of the
// previous wave to finish (the pattern of Jacobi's autonomous variant), so most blocks
// wait on claimed positions; the queue of 2 * width slots wraps hundreds of times.
struct WaveEnv {
  unsigned width = 0;
  unsigned waves = 0;
  unsigned* seen = nullptr;      // width * waves
  unsigned* arrivals = nullptr;  // waves
  unsigned burst_id = ~0u;       // BurstTask: the task that overflows its own queue
};
struct WaveTask {
  using Item = unsigned;  // wave * width + index
  static constexpr int threads = 256;
  static constexpr int shared_bytes = sizeof(int);
  template <class Ctx>
  __device__ static void execute(const Item& id, Ctx& ctx) {
    const WaveEnv& e = ctx.env();
    const unsigned wave = id / e.width;
    int* last = ctx.template shared_as<int>();
    if (ctx.rank() == 0) {
      atomicAdd(&e.seen[id], 1u);
      *last = atomicAdd(&e.arrivals[wave], 1u) + 1 == e.width ? 1 : 0;
    }
    ctx.sync();
    if (*last != 0 && wave + 1 < e.waves)
      ctx.template enqueue_each<WaveTask>(static_cast<int>(e.width),
                                          [&](int k) { return (wave + 1) * e.width + static_cast<unsigned>(k); });
  }
};

// `runs` runs of `waves` waves of `width` WaveTasks under `opt`: every task runs exactly
// once in each.
void run_waves(Scheduler scheduler, unsigned width, unsigned waves, RunOptions opt, int runs) {
  DeviceBuffer<unsigned> seen(width * waves);
  DeviceBuffer<unsigned> arrivals(waves);
  Runtime<Program<Phaseless<WaveTask>>, WaveEnv> rt(opt, WaveEnv{width, waves, seen.data(), arrivals.data()});
  std::vector<unsigned> first(width);
  for (unsigned k = 0; k < width; ++k) first[k] = k;
  for (int run = 0; run < runs; ++run) {
    seen.fill_zero();
    arrivals.fill_zero();
    rt.seed<WaveTask>(first);
    const RunStats s = rt.run(scheduler);
    ASSERT_EQ(s.types[0].executed, width * waves) << "run " << run;
    std::size_t wrong = 0;
    for (unsigned c : seen.to_host()) wrong += c != 1;
    ASSERT_EQ(wrong, 0u) << "run " << run;
  }
}

TEST_P(QueueGpu, WavesReleasedAtOnceRunEveryTaskOnceWhileBlocksWaitOnClaims) {
  const unsigned width = 37;
  RunOptions opt;
  opt.queue_capacity = 2 * width;
  run_waves(GetParam(), width, apiary::testing::scaled(400, 50), opt, 2);  // run 1 ends with blocks waiting on claims
}

// The end of a run while ordinary and waiting claims race for the last items. Waves
// wider than the grid (one block per SM), so that blocks finishing a task claim the
// wave's remaining items with the ordinary claim while others already wait. A waiting
// claim can take the position between an ordinary claim's count and its `head`; the
// ordinary claim then gets the next position, which nothing fills after the last wave.
// Before queue_take left on the run's end (runtime/queue.hpp), that block waited forever:
// Jacobi's autonomous bench hung in 2 of 10 runs on an H100 (session 20). This test did
// not hit that interleaving in 1500 runs on an H100 without the fix; it checks that many
// run ends with both kinds of claims count every task once. The exit itself is tested on
// the host (test_protocols.cpp: TakeEndsWhenTheRunEndsBeforeItsItemIsPublished).
TEST_P(QueueGpu, RunsEndWhileOrdinaryAndWaitingClaimsRaceForTheLastItems) {
  const unsigned width = 2 * static_cast<unsigned>(multiprocessor_count()) + 11;
  RunOptions opt;
  opt.queue_capacity = 4 * width;
  opt.blocks_per_sm = 1;
  run_waves(GetParam(), width, 3, opt, apiary::testing::scaled(1500, 300));
}

// An error while blocks wait on claimed positions ends the run: task `burst_id` pushes
// more slow tasks into its own queue than it holds, while every other block is busy with
// one of them or waits for a position past them.
struct BurstTask {
  using Item = unsigned;
  static constexpr int threads = 256;
  static constexpr int shared_bytes = 0;
  template <class Ctx>
  __device__ static void execute(const Item& id, Ctx& ctx) {
    if (id == ctx.env().burst_id) {
      ctx.template enqueue_each<BurstTask>(8192, [](int k) { return 1000u + static_cast<unsigned>(k); });
    } else if (id >= 1000u) {
      const unsigned long long t0 = global_time_ns();
      while (global_time_ns() - t0 < 200000 && !ctx.aborted()) __nanosleep(1000);
    }
  }
};

TEST_P(QueueGpu, OverflowWhileBlocksWaitOnClaimsIsReported) {
  RunOptions opt;
  opt.queue_capacity = 64;
  WaveEnv env;
  env.burst_id = 2;
  Runtime<Program<Phaseless<BurstTask>>, WaveEnv> rt(opt, env);
  const std::vector<unsigned> seeds{0, 1, 2, 3};
  rt.seed<BurstTask>(seeds);
  const std::string msg = overflow_message(rt, GetParam());
  EXPECT_NE(msg.find("BurstTask"), std::string::npos) << msg;
  env.burst_id = ~0u;  // the same runtime runs cleanly afterwards
  Runtime<Program<Phaseless<BurstTask>>, WaveEnv> ok(opt, env);
  ok.seed<BurstTask>(seeds);
  EXPECT_EQ(ok.run(GetParam()).total_tasks(), 4u);
}

// Reserved fan-outs (TaskContext::reserve / enqueue_reserved), chained as Jacobi's
// autonomous variant chains them: Filler(r) fills the ReservedSink positions of round r,
// which Filler(r - 1) reserved, while its last warp reserves those of round r + 1; the
// last to arrive of round r (its sinks and its filler, which arrives once that
// reservation is written) queues Filler(r + 1). Filler(0) reserves its own first.
struct ReserveEnv {
  int fan = 0;
  int rounds = 0;
  unsigned* seen = nullptr;           // one counter per sink item (rounds x fan)
  QueueReservation* slot = nullptr;  // the reservation of each round
  unsigned* arrivals = nullptr;       // per round
};
struct Filler;
template <class Ctx>
__device__ void arrive(const Ctx& ctx, int r) {
  const ReserveEnv& e = ctx.env();
  const unsigned before = atomic_ref<unsigned>(e.arrivals[r]).fetch_add(1u, cuda::std::memory_order_acq_rel);
  if (before == static_cast<unsigned>(e.fan) && r + 1 < e.rounds) ctx.template enqueue<Filler>(r + 1);
}
struct ReservedSink {
  using Item = unsigned;
  static constexpr int threads = 1;
  static constexpr int shared_bytes = 0;
  template <class Ctx>
  __device__ static void execute(const Item& id, Ctx& ctx) {
    atomicAdd(&ctx.env().seen[id], 1u);
    arrive(ctx, static_cast<int>(id) / ctx.env().fan);
  }
};
struct Filler {
  using Item = int;  // the round
  static constexpr int threads = 256;
  static constexpr int shared_bytes = 0;
  template <class Ctx>
  __device__ static void execute(const Item& r, Ctx& ctx) {
    const ReserveEnv& e = ctx.env();
    const bool last_warp = ctx.rank() >= 256 - 32;
    if (r == 0) {
      if (last_warp) {
        const QueueReservation first = ctx.template reserve<ReservedSink>(e.fan);
        if (ctx.rank() % 32 == 0) e.slot[0] = first;
      }
      ctx.sync();
    }
    const QueueReservation mine = e.slot[r];
    if (r + 1 < e.rounds && last_warp) {
      const QueueReservation next = ctx.template reserve<ReservedSink>(e.fan);
      if (ctx.rank() % 32 == 0) e.slot[r + 1] = next;
    }
    ctx.template enqueue_reserved<ReservedSink>(mine, [&](int i) { return static_cast<unsigned>(r * e.fan + i); });
    ctx.sync();  // the next round's reservation is written before this task arrives
    if (ctx.rank() == 0) arrive(ctx, r);
  }
};
using ReserveProgram = Program<Phaseless<Filler, ReservedSink>>;

TEST_P(QueueGpu, ReservedFanOutsRunEveryItemOnceOverManyLaps) {
  for (const int fan : {100, 256}) {  // partial warps; every warp, the reserving one too
    const int rounds = 300;
    DeviceBuffer<unsigned> seen(static_cast<std::size_t>(rounds) * fan);
    seen.fill_zero();
    DeviceBuffer<QueueReservation> slots(rounds);
    DeviceBuffer<unsigned> arrivals(rounds);
    arrivals.fill_zero();
    RunOptions opt;
    Runtime<ReserveProgram, ReserveEnv> rt(opt, ReserveEnv{fan, rounds, seen.data(), slots.data(), arrivals.data()});
    rt.set_queue_capacity<ReservedSink>(4 * static_cast<std::uint32_t>(fan));  // about 150 laps
    rt.seed<Filler>(std::vector<int>{0});
    const RunStats s = rt.run(GetParam());
    std::size_t wrong = 0;
    for (unsigned c : seen.to_host()) wrong += c != 1;
    EXPECT_EQ(wrong, 0u) << "fan " << fan;
    const auto sink = ReserveProgram::queue_of<ReservedSink>;
    EXPECT_EQ(s.types[sink].executed, std::uint64_t{rounds} * static_cast<unsigned>(fan));
    EXPECT_EQ(s.types[ReserveProgram::queue_of<Filler>].executed, static_cast<std::uint64_t>(rounds));
    EXPECT_LE(s.types[sink].peak_fill, s.types[sink].capacity);
  }
}

TEST_P(QueueGpu, ReservingMorePositionsThanTheQueueHoldsIsAnOverflow) {
  DeviceBuffer<unsigned> seen(2 * 100);
  DeviceBuffer<QueueReservation> slots(2);
  DeviceBuffer<unsigned> arrivals(2);
  arrivals.fill_zero();
  Runtime<ReserveProgram, ReserveEnv> rt(RunOptions{}, ReserveEnv{100, 2, seen.data(), slots.data(), arrivals.data()});
  rt.set_queue_capacity<ReservedSink>(64);
  rt.seed<Filler>(std::vector<int>{0});
  const std::string msg = overflow_message(rt, GetParam());
  EXPECT_NE(msg.find("ReservedSink"), std::string::npos) << msg;
}

// A task that fills its whole queue, so that its last item goes to the slot of its own
// position. The megakernel frees the slot of a position taken with a waiting claim (one
// queue of block-wide tasks) only after the task, unless one of the task's producers
// must wait for a slot first (free_held_position in runtime/device_view.cuh): without
// that, the last item waits for its own producer until the watchdog ends the run. A
// starter task (position 0) releases the parent (position 1) after a pause, so that the
// parent goes to a block that waits on a claim. Every way a task creates tasks:
// enqueue_each, enqueue (one at a time; under the megakernel the first goes to the
// block's continuation slot, so there is one more), reserve.
struct WrapEnv {
  int mode = 0;              // 0 enqueue_each, 1 enqueue, 2 reserve + enqueue_reserved
  unsigned children = 0;     // the queue's capacity (+ 1: enqueue under the megakernel)
  unsigned* seen = nullptr;  // one counter per child
};
struct WrapTask {
  using Item = unsigned;  // 0: the starter, 1: the parent, 2...: its children
  static constexpr int threads = 256;
  static constexpr int shared_bytes = sizeof(QueueReservation);
  template <class Ctx>
  __device__ static void execute(const Item& id, Ctx& ctx) {
    const WrapEnv& e = ctx.env();
    if (id == 0) {  // enqueue_each: never to this block's continuation slot
      const unsigned long long t0 = global_time_ns();
      while (global_time_ns() - t0 < 20000) __nanosleep(1000);
      ctx.template enqueue_each<WrapTask>(1, [](int) { return 1u; });
      return;
    }
    if (id != 1) {
      if (ctx.rank() == 0) atomicAdd(&e.seen[id - 2], 1u);
      return;
    }
    const int n = static_cast<int>(e.children);
    const auto child = [](int k) { return static_cast<unsigned>(k) + 2u; };
    if (e.mode == 0) {
      ctx.template enqueue_each<WrapTask>(n, child);
    } else if (e.mode == 1) {
      if (ctx.rank() == 0)
        for (int k = 0; k < n; ++k) ctx.template enqueue<WrapTask>(child(k));
    } else {
      auto* r = ctx.template shared_as<QueueReservation>();
      if (ctx.rank() < 32) {
        const QueueReservation got = ctx.template reserve<WrapTask>(n);
        if (ctx.rank() == 0) *r = got;
      }
      ctx.sync();
      ctx.template enqueue_reserved<WrapTask>(*r, child);
    }
  }
};

TEST_P(QueueGpu, TaskThatFillsItsQueueUpToItsOwnSlotRuns) {
  const unsigned capacity = 64;
  for (const int mode : {0, 1, 2}) {
    const unsigned children = capacity + (mode == 1 && GetParam() == Scheduler::megakernel ? 1 : 0);
    DeviceBuffer<unsigned> seen(children);
    RunOptions opt;
    opt.queue_capacity = capacity;
    opt.watchdog_seconds = 2;  // a wait for its own slot ends here, not in a hang
    Runtime<Program<Phaseless<WrapTask>>, WrapEnv> rt(opt, WrapEnv{mode, children, seen.data()});
    for (int run = 0; run < 3; ++run) {
      seen.fill_zero();
      rt.seed<WrapTask>(std::vector<unsigned>{0});
      const RunStats s = rt.run(GetParam());
      EXPECT_EQ(s.types[0].executed, children + 2) << "mode " << mode << ", run " << run;
      std::size_t wrong = 0;
      for (unsigned c : seen.to_host()) wrong += c != 1;
      EXPECT_EQ(wrong, 0u) << "mode " << mode << ", run " << run;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Schedulers, QueueGpu, apiary::testing::all_schedulers(),
                         apiary::testing::scheduler_name);

}  // namespace
}  // namespace apiary
