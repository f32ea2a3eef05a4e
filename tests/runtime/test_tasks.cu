// Task execution: worker sizes from 1 to 1024 threads (several tasks per warp, several
// per block), each task's barrier and shared memory its own, and a cooperative stop
// when the watchdog fires.
#include <gtest/gtest.h>

#include <string>
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

INSTANTIATE_TEST_SUITE_P(Schedulers, Tasks, apiary::testing::all_schedulers(), apiary::testing::scheduler_name);

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
