// Phases: no task of phase k+1 starts while phase k has work (checked on the device
// and from the trace), cyclic phases, and the error for work entering a finished
// phase of a non-cyclic program.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "schedulers/run.cuh"
#include "tests/runtime/scheduler_param.hpp"

namespace apiary {
namespace {

using apiary::testing::SchedulerTest;

struct PhaseEnv {
  unsigned* done = nullptr;        // tasks finished per phase [3]
  unsigned* violations = nullptr;  // a task started before the earlier phase finished
  unsigned expected[3] = {};
  unsigned* rounds = nullptr;      // cyclic test: Step tasks run per round
};

// Phase 0 tasks create more phase-0 work (a tree) and phase-1/2 tasks; every task
// checks on entry that all tasks of earlier phases have finished.
template <int PhaseIndex>
__device__ void check_earlier(const PhaseEnv& env) {
  for (int p = 0; p < PhaseIndex; ++p)
    if (atomicAdd(&env.done[p], 0u) != env.expected[p]) atomicAdd(env.violations, 1u);
}

struct C;
struct B;
struct A {
  using Item = int;  // depth
  static constexpr int threads = 32;
  static constexpr int shared_bytes = 0;
  template <class Ctx>
  __device__ static void execute(const Item& depth, Ctx& ctx);
};
struct B {
  using Item = int;
  static constexpr int threads = 64;
  static constexpr int shared_bytes = 0;
  template <class Ctx>
  __device__ static void execute(const Item& k, Ctx& ctx) {
    if (ctx.rank() == 0) check_earlier<1>(ctx.env());
    ctx.sync();
    if (ctx.rank() == 0) {
      ctx.template enqueue<C>(k);
      atomicAdd(&ctx.env().done[1], 1u);
    }
  }
};
struct C {
  using Item = int;
  static constexpr int threads = 4;
  static constexpr int shared_bytes = 0;
  template <class Ctx>
  __device__ static void execute(const Item&, Ctx& ctx) {
    if (ctx.rank() == 0) {
      check_earlier<2>(ctx.env());
      atomicAdd(&ctx.env().done[2], 1u);
    }
  }
};
template <class Ctx>
__device__ void A::execute(const Item& depth, Ctx& ctx) {
  if (ctx.rank() == 0) {
    if (depth < 9) {
      ctx.template enqueue<A>(depth + 1);
      ctx.template enqueue<A>(depth + 1);
    }
    ctx.template enqueue<B>(depth);
    __nanosleep(200);  // widen the window in which a premature phase switch would show
    atomicAdd(&ctx.env().done[0], 1u);
  }
}

using ThreePhases = Program<Phase<A>, Phase<B>, Phase<C>>;

class Phases : public SchedulerTest {};

TEST_P(Phases, LaterPhaseNeverStartsBeforeEarlierPhaseFinishes) {
  APIARY_REQUIRE_TRACE_KERNELS();
  DeviceBuffer<unsigned> done(3), violations(1);
  done.fill_zero();
  violations.fill_zero();
  const unsigned tasks = (1u << 10) - 1;  // binary tree of depth 9
  PhaseEnv env{done.data(), violations.data(), {tasks, tasks, tasks}, nullptr};
  RunOptions opt;
  opt.trace = true;
  Runtime<ThreePhases, PhaseEnv> rt(opt, env);
  rt.seed<A>(0);
  const RunStats s = rt.run(GetParam());
  EXPECT_EQ(violations.to_host()[0], 0u);
  EXPECT_EQ(done.to_host(), (std::vector<unsigned>{tasks, tasks, tasks}));
  EXPECT_EQ(s.tasks_per_phase, (std::vector<std::uint64_t>{tasks, tasks, tasks}));
  EXPECT_EQ(s.phase_switches, 2u);

  // The trace tells the same story: every task of phase k ends before any of k+1 starts.
  ASSERT_EQ(rt.trace().size(), 3u * tasks);
  unsigned long long last_end[3] = {0, 0, 0}, first_start[3] = {~0ull, ~0ull, ~0ull};
  for (const auto& r : rt.trace()) {
    const int phase = ThreePhases::phase_of_queue[r.queue];
    last_end[phase] = std::max(last_end[phase], r.end_ns);
    first_start[phase] = std::min(first_start[phase], r.start_ns);
    EXPECT_LE(r.start_ns, r.end_ns);
  }
  EXPECT_LE(last_end[0], first_start[1]);
  EXPECT_LE(last_end[1], first_start[2]);
}

// Cyclic: Step (phase 0) -> Check (phase 1) -> Step of the next round, 20 rounds.
struct Check;
struct Step {
  using Item = int;  // round
  static constexpr int threads = 1;
  static constexpr int shared_bytes = 0;
  template <class Ctx>
  __device__ static void execute(const Item& round, Ctx& ctx) {
    // All Steps of the previous round and its Check have finished.
    if (round > 0 && atomicAdd(&ctx.env().rounds[round - 1], 0u) != 1000u + 1u) atomicAdd(ctx.env().violations, 1u);
    atomicAdd(&ctx.env().rounds[round], 1u);
    if (atomicAdd(&ctx.env().done[0], 1u) % 1000u == 999u) ctx.template enqueue<Check>(round);
  }
};
struct Check {
  using Item = int;
  static constexpr int threads = 32;
  static constexpr int shared_bytes = 0;
  template <class Ctx>
  __device__ static void execute(const Item& round, Ctx& ctx) {
    if (ctx.rank() != 0) return;
    if (atomicAdd(&ctx.env().rounds[round], 0u) != 1000u) atomicAdd(ctx.env().violations, 1u);
    atomicAdd(&ctx.env().rounds[round], 1u);
    if (round + 1 < 20)
      for (int i = 0; i < 1000; ++i) ctx.template enqueue<Step>(round + 1);
  }
};
using Cycle = Program<Phase<Step>, Phase<Check>>;

TEST_P(Phases, CyclicPhasesRunUntilEverythingIsEmpty) {
  DeviceBuffer<unsigned> done(3), violations(1), rounds(20);
  done.fill_zero();
  violations.fill_zero();
  rounds.fill_zero();
  RunOptions opt;
  opt.cyclic = true;
  Runtime<Cycle, PhaseEnv> rt(opt, PhaseEnv{done.data(), violations.data(), {}, rounds.data()});
  std::vector<int> first(1000, 0);
  rt.seed<Step>(first);
  const RunStats s = rt.run(GetParam());
  EXPECT_EQ(violations.to_host()[0], 0u);
  for (unsigned r : rounds.to_host()) EXPECT_EQ(r, 1001u);
  EXPECT_EQ(s.types[0].executed, 20000u);
  EXPECT_EQ(s.types[1].executed, 20u);
  EXPECT_EQ(s.phase_switches, 39u);  // 0->1 and 1->0 per round, minus the last return
}

// Ping-pong: every task is alone in its phase and releases the one task of the other
// phase, so every task ends a phase (the megakernel's block then switches phases itself
// and runs the released task, docs/architecture.md §2.3). Each task checks that its
// predecessor has finished; Tail tasks in phase 0 keep a few other blocks busy in
// some rounds, so that the switch also has to wait for them.
template <int Which>
struct Ping {
  using Item = int;  // position in the chain
  static constexpr int threads = Which == 0 ? 1 : 32;
  static constexpr int shared_bytes = 0;
  template <class Ctx>
  __device__ static void execute(const Item& k, Ctx& ctx);
};
struct Tail {
  using Item = int;
  static constexpr int threads = 1;
  static constexpr int shared_bytes = 0;
  template <class Ctx>
  __device__ static void execute(const Item&, Ctx& ctx) {
    __nanosleep(2000);
    atomicAdd(&ctx.env().done[2], 1u);
  }
};
template <int Which>
template <class Ctx>
__device__ void Ping<Which>::execute(const Item& k, Ctx& ctx) {
  if (ctx.rank() != 0) return;
  const PhaseEnv& e = ctx.env();
  if (atomicAdd(&e.done[0], 0u) != static_cast<unsigned>(k)) atomicAdd(e.violations, 1u);
  // The Tails released with the previous Ping<0> have all finished.
  if (Which == 1 && atomicAdd(&e.done[2], 0u) != atomicAdd(&e.done[1], 0u)) atomicAdd(e.violations, 1u);
  atomicAdd(&e.done[0], 1u);
  if (k + 1 < static_cast<int>(e.expected[0])) ctx.template enqueue<Ping<1 - Which>>(k + 1);
  if (Which == 0 && k % 64 == 0) {
    atomicAdd(&e.done[1], 3u);
    for (int t = 0; t < 3; ++t) ctx.template enqueue<Tail>(k);
  }
}
using PingPong = Program<Phase<Ping<0>, Tail>, Phase<Ping<1>>>;

TEST_P(Phases, EveryTaskEndingAPhaseSwitchesInOrder) {
  DeviceBuffer<unsigned> done(3), violations(1);
  done.fill_zero();
  violations.fill_zero();
  const unsigned n = 2001;
  RunOptions opt;
  opt.cyclic = true;
  Runtime<PingPong, PhaseEnv> rt(opt, PhaseEnv{done.data(), violations.data(), {n, 0, 0}, nullptr});
  rt.seed<Ping<0>>(0);
  const RunStats s = rt.run(GetParam());
  EXPECT_EQ(violations.to_host()[0], 0u);
  const std::vector<unsigned> d = done.to_host();
  EXPECT_EQ(d[0], n);
  EXPECT_EQ(d[2], d[1]);
  EXPECT_EQ(s.phase_switches, n - 1);
  EXPECT_EQ(s.types[0].executed, (n + 1) / 2);
  EXPECT_EQ(s.types[2].executed, n / 2);
}

TEST_P(Phases, WorkForAFinishedPhaseIsAnErrorWithoutCyclic) {
  DeviceBuffer<unsigned> done(3), violations(1), rounds(20);
  done.fill_zero();
  violations.fill_zero();
  rounds.fill_zero();
  Runtime<Cycle, PhaseEnv> rt(RunOptions{}, PhaseEnv{done.data(), violations.data(), {}, rounds.data()});
  std::vector<int> first(1000, 0);
  rt.seed<Step>(first);
  try {
    rt.run(GetParam());
    FAIL() << "expected an error";
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find("cyclic"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("Step"), std::string::npos) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(Schedulers, Phases, apiary::testing::all_schedulers(), apiary::testing::scheduler_name);

}  // namespace
}  // namespace apiary
