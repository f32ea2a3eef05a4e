// Task execution: worker sizes from 1 to 1024 threads (several tasks per warp, several
// per block), each task's barrier and shared memory its own, and a cooperative stop
// when the watchdog fires.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "schedulers/run.cuh"
#include "tests/runtime/scheduler_param.hpp"

namespace apiary {
namespace {

using apiary::testing::SchedulerTest;

struct WorkerEnv {
  unsigned* hits = nullptr;    // per task: threads that ran it
  unsigned* errors = nullptr;  // barrier or shared-memory mismatches
};

// Every thread writes its rank into the task's shared memory, syncs only the task,
// and checks its neighbour's entry: a barrier that did not wait, or shared memory
// shared with another task of the block, shows up as a mismatch.
template <int W, int Base>
struct Worker {
  using Item = unsigned;  // task id
  static constexpr int threads = W;
  static constexpr int shared_bytes = W * 2 * static_cast<int>(sizeof(unsigned));
  template <class Ctx>
  __device__ static void execute(const Item& id, Ctx& ctx) {
    unsigned* s = ctx.template shared_as<unsigned>();
    const int r = ctx.rank();
    for (int round = 0; round < 3; ++round) {
      s[r] = id * 4096u + r + round;
      s[W + r] = id;
      ctx.sync();
      const int nb = (r + 1) % W;
      if (s[nb] != id * 4096u + nb + round || s[W + nb] != id) atomicAdd(ctx.env().errors, 1u);
      ctx.sync();
    }
    atomicAdd(&ctx.env().hits[Base + id], 1u);
  }
};

constexpr unsigned kTasks = 2000;
using Mixed = Program<Phaseless<Worker<1, 0>, Worker<2, 1 * kTasks>, Worker<4, 2 * kTasks>, Worker<8, 3 * kTasks>,
                                Worker<16, 4 * kTasks>, Worker<32, 5 * kTasks>, Worker<64, 6 * kTasks>,
                                Worker<128, 7 * kTasks>, Worker<256, 8 * kTasks>>>;
using Big = Program<Phaseless<Worker<1024, 0>, Worker<96, kTasks>>>;

class Tasks : public SchedulerTest {};

template <class P, std::size_t... I>
void seed_all(Runtime<P, WorkerEnv>& rt, std::index_sequence<I...>) {
  std::vector<unsigned> ids(kTasks);
  for (unsigned i = 0; i < kTasks; ++i) ids[i] = i;
  (rt.template seed<typename P::template type_at<I>>(ids), ...);
}

template <class P>
void check_worker_program(Scheduler scheduler, const std::vector<int>& widths) {
  DeviceBuffer<unsigned> hits(widths.size() * kTasks), errors(1);
  hits.fill_zero();
  errors.fill_zero();
  Runtime<P, WorkerEnv> rt(RunOptions{}, WorkerEnv{hits.data(), errors.data()});
  seed_all(rt, std::make_index_sequence<P::type_count>{});
  const RunStats s = rt.run(scheduler);
  EXPECT_EQ(errors.to_host()[0], 0u);
  const auto h = hits.to_host();
  for (std::size_t t = 0; t < widths.size(); ++t)
    for (unsigned i = 0; i < kTasks; ++i)
      ASSERT_EQ(h[t * kTasks + i], static_cast<unsigned>(widths[t])) << "worker size " << widths[t] << " task " << i;
  EXPECT_EQ(s.total_tasks(), widths.size() * kTasks);
}

TEST_P(Tasks, MixedWorkerSizesShareWarpsAndBlocks) {
  check_worker_program<Mixed>(GetParam(), {1, 2, 4, 8, 16, 32, 64, 128, 256});
}

TEST_P(Tasks, FullBlockAndOddWarpCountWorkers) { check_worker_program<Big>(GetParam(), {1024, 96}); }

// Spins until the run is aborted: the watchdog fires, the task sees it and returns.
struct Patient {
  using Item = int;
  static constexpr int threads = 32;
  static constexpr int shared_bytes = 0;
  template <class Ctx>
  __device__ static void execute(const Item&, Ctx& ctx) {
    while (!ctx.aborted()) __nanosleep(1000);
  }
};
using PatientProgram = Program<Phaseless<Patient>>;

TEST_P(Tasks, WatchdogAbortsARunWithoutProgress) {
  APIARY_SKIP_STUCK_TASK_TEST_UNDER_SANITIZER(GetParam());
  RunOptions opt;
  opt.watchdog_seconds = 0.3;
  Runtime<PatientProgram> rt(opt);
  rt.seed<Patient>(0);
  try {
    rt.run(GetParam());
    FAIL() << "expected the watchdog";
  } catch (const WatchdogError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("watchdog"), std::string::npos) << msg;
    EXPECT_NE(msg.find("Patient"), std::string::npos) << msg;
  }
  // The context is still usable: the task returned when asked to.
  Runtime<PatientProgram> again(opt);
  EXPECT_EQ(again.run(GetParam()).total_tasks(), 0u);
}

// A task of 256 threads that passes a barrier per step and polls the abort flag between
// them, as a long multi-warp loop does: with aborted_together every thread leaves at the
// same step, so none is left waiting at a barrier and the watchdog's abort ends the run.
struct PatientBlock {
  using Item = int;
  static constexpr int threads = 256;
  static constexpr int shared_bytes = 16;
  template <class Ctx>
  __device__ static void execute(const Item&, Ctx& ctx) {
    bool& stop = *ctx.template shared_as<bool>();
    for (unsigned step = 0;; ++step) {
      if (step % 4 == 0 && ctx.aborted_together(stop)) return;
      __nanosleep(200 * (ctx.rank() % 7));  // threads reach the poll at different times
      ctx.sync();
    }
  }
};

TEST_P(Tasks, WatchdogEndsAMultiWarpTaskThatPollsBetweenBarriers) {
  APIARY_SKIP_STUCK_TASK_TEST_UNDER_SANITIZER(GetParam());
  RunOptions opt;
  opt.watchdog_seconds = 0.3;
  Runtime<Program<Phaseless<PatientBlock>>> rt(opt);
  rt.seed<PatientBlock>(std::vector<int>(8, 0));
  EXPECT_THROW(rt.run(GetParam()), WatchdogError);
}

// Seeds of up to kSeedsInParameters bytes in all travel in prepare_run's parameters, larger
// ones from mapped host memory: both ways, and each queue's offset in the parameters,
// give every task its own item.
struct Marked {
  unsigned id, a, b, c;
};
struct MarkEnv {
  unsigned* hits = nullptr;  // [queue * 256 + id]
  unsigned* errors = nullptr;
};
template <unsigned Queue>
struct CheckMark {
  using Item = Marked;
  static constexpr int threads = 32;
  static constexpr int shared_bytes = 0;
  template <class Ctx>
  __device__ static void execute(const Item& m, Ctx& ctx) {
    if (ctx.rank() != 0) return;
    if (m.id >= 256 || m.a != m.id * 3 + Queue || m.b != ~m.id || m.c != Queue) {
      atomicAdd(ctx.env().errors, 1u);
      return;
    }
    atomicAdd(&ctx.env().hits[Queue * 256 + m.id], 1u);
  }
};
using TwoMarks = Program<Phaseless<CheckMark<0>, CheckMark<1>>>;
static_assert(sizeof(Marked) == 16 && detail::kSeedsInParameters == 128 * sizeof(Marked));

TEST_P(Tasks, SeedsInParametersAndFromHostMemoryReachTheirTasks) {
  DeviceBuffer<unsigned> hits(512), errors(1);
  Runtime<TwoMarks, MarkEnv> rt(RunOptions{}, MarkEnv{hits.data(), errors.data()});
  auto marks = [](unsigned queue, unsigned n) {
    std::vector<Marked> v;
    for (unsigned i = 0; i < n; ++i) v.push_back(Marked{i, i * 3 + queue, ~i, queue});
    return v;
  };
  // In parameters: 2048 bytes, the second queue at offsets 1024 and 16; then 2064 and
  // 4096 bytes, from host memory; then in parameters again (the staging not reused).
  const std::vector<std::pair<unsigned, unsigned>> counts{{64, 64}, {1, 127}, {0, 128}, {64, 65}, {256, 0}, {3, 5}};
  for (const auto& [n0, n1] : counts) {
    hits.fill_zero();
    errors.fill_zero();
    rt.seed<CheckMark<0>>(marks(0, n0));
    rt.seed<CheckMark<1>>(marks(1, n1));
    const RunStats s = rt.run(GetParam());
    EXPECT_EQ(s.total_tasks(), n0 + n1);
    EXPECT_EQ(errors.to_host()[0], 0u) << n0 << " + " << n1 << " seeds";
    const auto h = hits.to_host();
    for (unsigned i = 0; i < 256; ++i) {
      ASSERT_EQ(h[i], i < n0 ? 1u : 0u) << "queue 0, item " << i << ", seeds " << n0 << " + " << n1;
      ASSERT_EQ(h[256 + i], i < n1 ? 1u : 0u) << "queue 1, item " << i << ", seeds " << n0 << " + " << n1;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Schedulers, Tasks, apiary::testing::all_schedulers(), apiary::testing::scheduler_name);

// A megakernel run without events (RunOptions::event_timer off) is timed by the device
// clock: at least as long as its one task, which waits 2 ms by that clock, and no longer
// than the host waited for the run.
struct Waits {
  using Item = unsigned;  // nanoseconds
  static constexpr int threads = 32;
  static constexpr int shared_bytes = 0;
  template <class Ctx>
  __device__ static void execute(const Item& ns, Ctx& ctx) {
    if (ctx.rank() != 0) return;
    const unsigned long long t0 = global_time_ns();
    while (global_time_ns() - t0 < ns) __nanosleep(1000);
  }
};

TEST(RunTiming, WithoutEventsTheDeviceClockTimesTheMegakernel) {
  APIARY_REQUIRE_GPU();
  for (const bool events : {true, false}) {
    RunOptions opt;
    opt.event_timer = events;
    Runtime<Program<Phaseless<Waits>>> rt(opt);
    rt.seed<Waits>(2'000'000u);
    const auto t0 = std::chrono::steady_clock::now();
    const RunStats s = rt.run(Scheduler::megakernel);
    const double wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(s.total_tasks(), 1u);
    EXPECT_GE(s.milliseconds, 2.0) << (events ? "events" : "device clock");
    EXPECT_LE(s.milliseconds, wall_ms) << (events ? "events" : "device clock");
  }
}

// A task type may ask for a minimum of resident megakernel blocks per SM, which caps the
// kernel's registers (megakernel::Config::min_blocks); 0 asks for nothing. Not with
// relocatable device code (the controller's build), where the megakernel has no cap.
#if !defined(__CUDACC_RDC__)
template <int MinBlocks>
struct Asking : Worker<256, 0> {
  static constexpr int min_blocks_per_sm = MinBlocks;
};
using AskingFour = Program<Phaseless<Asking<4>>>;
static_assert(megakernel::Config<Program<Phaseless<Worker<256, 0>>>>::min_blocks == 2);
static_assert(megakernel::Config<Program<Phaseless<Asking<0>>>>::min_blocks == 2);
static_assert(megakernel::Config<Program<Phaseless<Worker<32, 0>, Asking<4>>>>::min_blocks == 4);

TEST(TaskTypes, TheMinimumOfBlocksPerSmATaskTypeAsksForIsResident) {
  APIARY_REQUIRE_GPU();
  DeviceBuffer<unsigned> hits(kTasks), errors(1);
  hits.fill_zero();
  errors.fill_zero();
  Runtime<AskingFour, WorkerEnv> rt(RunOptions{}, WorkerEnv{hits.data(), errors.data()});
  EXPECT_GE(megakernel::resident_blocks(rt), 4 * multiprocessor_count());
  std::vector<unsigned> ids(kTasks);
  for (unsigned i = 0; i < kTasks; ++i) ids[i] = i;
  rt.seed<Asking<4>>(ids);
  EXPECT_EQ(rt.run(Scheduler::megakernel).total_tasks(), kTasks);
  EXPECT_EQ(errors.to_host()[0], 0u);
  for (unsigned h : hits.to_host()) ASSERT_EQ(h, 256u);
}
#endif

}  // namespace
}  // namespace apiary
