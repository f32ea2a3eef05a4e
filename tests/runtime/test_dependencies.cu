// Individual dependencies: chains, self-extending chains of several worker sizes,
// diamonds, wide fan-in, resolves that come before the task exists, tasks left waiting,
// waiting-storage overflow.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "schedulers/run.cuh"
#include "tests/runtime/scheduler_param.hpp"

namespace apiary {
namespace {

using apiary::testing::SchedulerTest;

struct DepEnv {
  Dependency* deps = nullptr;
  int n = 0;
  unsigned* counter = nullptr;
  unsigned* violations = nullptr;
  unsigned* flags = nullptr;
};

// ---- chain: Link k runs only after Link k-1 resolved it --------------------------
struct Link {
  using Item = int;
  static constexpr int threads = 1;
  static constexpr int shared_bytes = 0;
  template <class Ctx>
  __device__ static void execute(const Item& k, Ctx& ctx) {
    const DepEnv& e = ctx.env();
    if (atomicAdd(e.counter, 0u) != static_cast<unsigned>(k)) atomicAdd(e.violations, 1u);
    atomicAdd(e.counter, 1u);
    if (k + 1 < e.n) ctx.resolve(e.deps[k + 1]);
  }
};
// Creates the whole chain; Link 0 starts at once, so later links are often resolved
// before this loop announces them (early resolves happen naturally).
struct MakeChain {
  using Item = int;
  static constexpr int threads = 32;
  static constexpr int shared_bytes = 0;
  template <class Ctx>
  __device__ static void execute(const Item&, Ctx& ctx) {
    const DepEnv& e = ctx.env();
    if (ctx.rank() == 0) ctx.template enqueue<Link>(0);
    for (int k = 1 + ctx.rank(); k < e.n; k += Ctx::size()) ctx.template enqueue_after<Link>(e.deps[k], 1, k);
  }
};
using ChainProgram = Program<Phaseless<MakeChain, Link>>;

class Dependencies : public SchedulerTest {};

TEST_P(Dependencies, ChainRunsInOrder) {
  const int n = apiary::testing::scaled(10000);
  auto deps = make_dependencies(n);
  DeviceBuffer<unsigned> counter(1), violations(1);
  counter.fill_zero();
  violations.fill_zero();
  Runtime<ChainProgram, DepEnv> rt(RunOptions{}, DepEnv{deps.data(), n, counter.data(), violations.data(), nullptr});
  rt.seed<MakeChain>(0);
  const RunStats s = rt.run(GetParam());
  EXPECT_EQ(counter.to_host()[0], static_cast<unsigned>(n));
  EXPECT_EQ(violations.to_host()[0], 0u);
  EXPECT_EQ(s.types[ChainProgram::queue_of<Link>].executed, static_cast<std::uint64_t>(n));
  for (const Dependency& d : deps.to_host()) ASSERT_EQ(d.word, 0u);
}

// ---- chains of tasks of 1, 64 and 256 threads that create their own successor --------
// Step<W> k creates Step<W> k+1 behind a dependency and resolves it itself, so exactly one
// task waits at a time; under the megakernel the successor runs in the same block as a
// continuation of the same type (run without the scheduler's loop), and the waiting
// slots are given back in batches. Every task checks its order and its shared memory.
template <int W>
struct Step {
  using Item = int;
  static constexpr int threads = W;
  static constexpr int shared_bytes = W * sizeof(int);
  static constexpr int lane = W == 1 ? 0 : W == 64 ? 1 : 2;  // this chain's part of the env arrays
  template <class Ctx>
  __device__ static void execute(const Item& k, Ctx& ctx) {
    const DepEnv& e = ctx.env();
    int* scratch = ctx.template shared_as<int>();
    scratch[ctx.rank()] = k + ctx.rank();
    ctx.sync();
    if (ctx.rank() == 0) {
      long long sum = 0;
      for (int r = 0; r < W; ++r) sum += scratch[r];
      const bool ordered = atomicAdd(&e.counter[lane], 0u) == static_cast<unsigned>(k);
      if (!ordered || sum != static_cast<long long>(W) * k + W * (W - 1) / 2) atomicAdd(e.violations, 1u);
      atomicAdd(&e.counter[lane], 1u);
      if (k + 1 < e.n) {
        Dependency& next = e.deps[lane * e.n + k + 1];
        ctx.template enqueue_after<Step>(next, 1, k + 1);
        ctx.resolve(next);
      }
    }
    ctx.sync();  // the shared memory is read before the next task of this group writes it
  }
};
using StepProgram = Program<Phaseless<Step<1>, Step<64>, Step<256>>>;

// One chain of Step<W> (the program holds all three sizes, so the block has 256 threads).
template <int W>
void run_self_extending_chain(Scheduler scheduler) {
  const int n = apiary::testing::scaled(3000);
  constexpr int lane = Step<W>::lane;
  auto deps = make_dependencies(3 * n);
  DeviceBuffer<unsigned> counter(3), violations(1);
  counter.fill_zero();
  violations.fill_zero();
  RunOptions opt;
  opt.waiting_capacity = 1;  // one task waits at a time: a slot given back late must not count as taken
  Runtime<StepProgram, DepEnv> rt(opt, DepEnv{deps.data(), n, counter.data(), violations.data(), nullptr});
  rt.seed<Step<W>>(0);
  const RunStats s = rt.run(scheduler);
  EXPECT_EQ(counter.to_host()[lane], static_cast<unsigned>(n));
  EXPECT_EQ(violations.to_host()[0], 0u);
  EXPECT_EQ(s.types[StepProgram::queue_of<Step<W>>].executed, static_cast<std::uint64_t>(n));
  EXPECT_EQ(s.peak_waiting, 1u);
  for (const Dependency& d : deps.to_host()) ASSERT_EQ(d.word, 0u);
}

TEST_P(Dependencies, SelfExtendingChainOfOneThreadTasksNeedsOneWaitingSlot) {
  run_self_extending_chain<1>(GetParam());
}
TEST_P(Dependencies, SelfExtendingChainOf64ThreadTasksNeedsOneWaitingSlot) {
  run_self_extending_chain<64>(GetParam());
}
TEST_P(Dependencies, SelfExtendingChainOfBlockWideTasksNeedsOneWaitingSlot) {
  run_self_extending_chain<256>(GetParam());
}

// ---- diamonds: Top -> Left, Right -> Bottom (behind 2) -----------------------------
struct Node {
  struct Item {
    int id;
    int role;  // 0 top, 1 left, 2 right, 3 bottom
  };
  static constexpr int threads = 2;
  static constexpr int shared_bytes = 0;
  template <class Ctx>
  __device__ static void execute(const Item& it, Ctx& ctx) {
    if (ctx.rank() != 0) return;
    const DepEnv& e = ctx.env();
    unsigned* f = e.flags + 4 * it.id;
    if (it.role == 0) {
      ctx.template enqueue_after<Node>(e.deps[it.id], 2, Item{it.id, 3});
      ctx.template enqueue<Node>(Item{it.id, 1});
      ctx.template enqueue<Node>(Item{it.id, 2});
    } else if (it.role == 3) {
      if (atomicAdd(&f[1], 0u) != 1u || atomicAdd(&f[2], 0u) != 1u) atomicAdd(e.violations, 1u);
    } else {
      __threadfence();
      atomicAdd(&f[it.role], 1u);
      ctx.resolve(e.deps[it.id]);
    }
    atomicAdd(&f[3], it.role == 3 ? 1u : 0u);
  }
};
using DiamondProgram = Program<Phaseless<Node>>;

TEST_P(Dependencies, DiamondsJoinAfterBothBranches) {
  const int n = apiary::testing::scaled(20000);
  auto deps = make_dependencies(n);
  DeviceBuffer<unsigned> violations(1), flags(4 * n);
  violations.fill_zero();
  flags.fill_zero();
  Runtime<DiamondProgram, DepEnv> rt(RunOptions{}, DepEnv{deps.data(), n, nullptr, violations.data(), flags.data()});
  std::vector<Node::Item> tops;
  for (int i = 0; i < n; ++i) tops.push_back({i, 0});
  rt.seed<Node>(tops);
  const RunStats s = rt.run(GetParam());
  EXPECT_EQ(violations.to_host()[0], 0u);
  EXPECT_EQ(s.total_tasks(), 4u * n);
  const auto f = flags.to_host();
  for (int i = 0; i < n; ++i) ASSERT_EQ(f[4 * i + 3], 1u) << "bottom of diamond " << i;
}

// ---- wide fan-in: one Sink behind 10^5 Leaf tasks -----------------------------------
struct Sink {
  using Item = int;
  static constexpr int threads = 1;
  static constexpr int shared_bytes = 0;
  template <class Ctx>
  __device__ static void execute(const Item&, Ctx& ctx) {
    if (atomicAdd(ctx.env().counter, 0u) != static_cast<unsigned>(ctx.env().n)) atomicAdd(ctx.env().violations, 1u);
    atomicAdd(ctx.env().flags, 1u);
  }
};
struct Leaf {
  using Item = int;
  static constexpr int threads = 1;
  static constexpr int shared_bytes = 0;
  template <class Ctx>
  __device__ static void execute(const Item&, Ctx& ctx) {
    atomicAdd(ctx.env().counter, 1u);
    ctx.resolve(ctx.env().deps[0]);
  }
};
struct Root {
  using Item = int;
  static constexpr int threads = 256;
  static constexpr int shared_bytes = 0;
  template <class Ctx>
  __device__ static void execute(const Item&, Ctx& ctx) {
    if (ctx.rank() == 0) ctx.template enqueue_after<Sink>(ctx.env().deps[0], ctx.env().n, 0);
    for (int i = ctx.rank(); i < ctx.env().n; i += Ctx::size()) ctx.template enqueue<Leaf>(i);
  }
};
using FanInProgram = Program<Phaseless<Root, Leaf, Sink>>;

TEST_P(Dependencies, WideFanInOfOneHundredThousand) {
  const int n = apiary::testing::scaled(100000);
  auto deps = make_dependencies(1);
  DeviceBuffer<unsigned> counter(1), violations(1), flags(1);
  counter.fill_zero();
  violations.fill_zero();
  flags.fill_zero();
  Runtime<FanInProgram, DepEnv> rt(RunOptions{}, DepEnv{deps.data(), n, counter.data(), violations.data(), flags.data()});
  rt.seed<Root>(0);
  rt.run(GetParam());
  EXPECT_EQ(flags.to_host()[0], 1u);
  EXPECT_EQ(violations.to_host()[0], 0u);
}

// ---- resolves before the task exists ------------------------------------------------
struct Target {
  using Item = int;
  static constexpr int threads = 8;
  static constexpr int shared_bytes = 0;
  template <class Ctx>
  __device__ static void execute(const Item& i, Ctx& ctx) {
    if (ctx.rank() == 0) atomicAdd(&ctx.env().flags[i], 1u);
  }
};
struct Resolver {
  using Item = int;
  static constexpr int threads = 1;
  static constexpr int shared_bytes = 0;
  template <class Ctx>
  __device__ static void execute(const Item& i, Ctx& ctx) {
    ctx.resolve(ctx.env().deps[i % ctx.env().n]);
  }
};
struct Creator {
  using Item = int;
  static constexpr int threads = 1;
  static constexpr int shared_bytes = 0;
  template <class Ctx>
  __device__ static void execute(const Item& i, Ctx& ctx) {
    ctx.template enqueue_after<Target>(ctx.env().deps[i], static_cast<int>(ctx.env().counter[0]), i);
  }
};
// All resolves happen in phase 0, every task is created in phase 1.
using EarlyProgram = Program<Phase<Resolver>, Phase<Creator>, Phase<Target>>;

TEST_P(Dependencies, ResolvesBeforeCreationReleaseTheTaskAtOnce) {
  const int n = apiary::testing::scaled(5000), per_task = 3;
  auto deps = make_dependencies(n);
  DeviceBuffer<unsigned> flags(n), preds(std::vector<unsigned>{per_task});
  flags.fill_zero();
  Runtime<EarlyProgram, DepEnv> rt(RunOptions{}, DepEnv{deps.data(), n, preds.data(), nullptr, flags.data()});
  std::vector<int> resolves(n * per_task), creators(n);
  for (int i = 0; i < n * per_task; ++i) resolves[i] = i;
  for (int i = 0; i < n; ++i) creators[i] = i;
  rt.seed<Resolver>(resolves);
  rt.seed<Creator>(creators);
  const RunStats s = rt.run(GetParam());
  for (unsigned f : flags.to_host()) ASSERT_EQ(f, 1u);
  EXPECT_EQ(s.types[EarlyProgram::queue_of<Target>].executed, static_cast<std::uint64_t>(n));
}

TEST_P(Dependencies, TasksLeftWaitingAreReportedPerType) {
  const int n = 100;
  auto deps = make_dependencies(n);
  DeviceBuffer<unsigned> flags(n), preds(std::vector<unsigned>{2});  // two announced, one resolve each
  flags.fill_zero();
  Runtime<EarlyProgram, DepEnv> rt(RunOptions{}, DepEnv{deps.data(), n, preds.data(), nullptr, flags.data()});
  std::vector<int> ids(n);
  for (int i = 0; i < n; ++i) ids[i] = i;
  rt.seed<Resolver>(ids);
  rt.seed<Creator>(ids);
  try {
    rt.run(GetParam());
    FAIL() << "expected tasks left waiting";
  } catch (const TasksLeftWaitingError& e) {
    EXPECT_NE(std::string(e.what()).find("100 of type Target"), std::string::npos) << e.what();
  }
}

TEST_P(Dependencies, WaitingStorageOverflowIsReported) {
  const int n = 1000;
  auto deps = make_dependencies(n);
  DeviceBuffer<unsigned> flags(n), preds(std::vector<unsigned>{1});
  flags.fill_zero();
  RunOptions opt;
  opt.waiting_capacity = 64;
  Runtime<EarlyProgram, DepEnv> rt(opt, DepEnv{deps.data(), n, preds.data(), nullptr, flags.data()});
  std::vector<int> ids(n);
  for (int i = 0; i < n; ++i) ids[i] = i;
  rt.seed<Creator>(ids);
  try {
    rt.run(GetParam());
    FAIL() << "expected an overflow";
  } catch (const OverflowError& e) {
    EXPECT_NE(std::string(e.what()).find("waiting storage"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("64"), std::string::npos) << e.what();
  }
}

TEST_P(Dependencies, NegativePredecessorCountIsAnError) {
  auto deps = make_dependencies(1);
  DeviceBuffer<unsigned> flags(1), preds(std::vector<unsigned>{static_cast<unsigned>(-1)});
  Runtime<EarlyProgram, DepEnv> rt(RunOptions{}, DepEnv{deps.data(), 1, preds.data(), nullptr, flags.data()});
  rt.seed<Creator>(0);
  EXPECT_THROW(rt.run(GetParam()), RunError);
}

INSTANTIATE_TEST_SUITE_P(Schedulers, Dependencies, apiary::testing::all_schedulers(),
                         apiary::testing::scheduler_name);

}  // namespace
}  // namespace apiary
