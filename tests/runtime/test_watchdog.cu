// A task that never returns: the watchdog reports and stops the kernel instead of
// hanging the GPU, under every scheduler (the megakernel traps its own kernel; the
// timesliced and controller schedulers' guard kernel traps the stuck worker). This
// leaves the CUDA context unusable, so each run gets a process of its own: a death test
// in the "threadsafe" style, which re-executes this binary for the run.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "schedulers/run.cuh"
#include "tests/runtime/scheduler_param.hpp"

namespace apiary {
namespace {

// Threads: 32, and a whole block (the megakernel's other blocks then wait on claimed
// positions: schedulers/megakernel.cuh, waiting claims).
template <int Threads>
struct StuckOf {
  using Item = int;
  static constexpr int threads = Threads;
  static constexpr int shared_bytes = 0;
  template <class Ctx>
  __device__ static void execute(const Item&, Ctx&) {
    volatile int never = 0;
    while (never == 0) __nanosleep(1000);  // ignores ctx.aborted(): a genuinely stuck task
  }
};

// In the child process: run, check the error, and exit 0 only when it is the expected one.
template <int Threads>
[[noreturn]] void run_stuck_program(Scheduler scheduler) {
  using Stuck = StuckOf<Threads>;
  using StuckProgram = Program<Phaseless<Stuck>>;
  RunOptions opt;
  opt.watchdog_seconds = 0.5;
  int code = 1;
  const auto t0 = std::chrono::steady_clock::now();
  try {
    Runtime<StuckProgram> rt(opt);
    rt.template seed<Stuck>(0);
    rt.run(scheduler);
    std::fprintf(stderr, "expected the watchdog, the run succeeded\n");
  } catch (const WatchdogError& e) {
    const std::string msg = e.what();
    const bool in_time = std::chrono::steady_clock::now() - t0 < std::chrono::seconds(20);
    if (msg.find("never returned") != std::string::npos &&
        msg.find("1 task(s) queued or running") != std::string::npos && in_time) {
      code = 0;
    } else {
      std::fprintf(stderr, "unexpected watchdog report%s: %s\n", in_time ? "" : " (after 20 s)", msg.c_str());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "expected a WatchdogError, got: %s\n", e.what());
  }
  std::fflush(stderr);
  std::_Exit(code);  // no clean-up in a dead CUDA context
}

class WatchdogDeathTest : public apiary::testing::SchedulerTest {};

TEST_P(WatchdogDeathTest, StopsAKernelWhoseTaskNeverReturns) {
  APIARY_SKIP_STUCK_TASK_TEST_UNDER_SANITIZER(GetParam());
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(run_stuck_program<32>(GetParam()), ::testing::ExitedWithCode(0), "");
}

TEST_P(WatchdogDeathTest, StopsAKernelWhoseBlockWideTaskNeverReturns) {
  APIARY_SKIP_STUCK_TASK_TEST_UNDER_SANITIZER(GetParam());
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(run_stuck_program<256>(GetParam()), ::testing::ExitedWithCode(0), "");
}

INSTANTIATE_TEST_SUITE_P(Schedulers, WatchdogDeathTest, apiary::testing::all_schedulers(),
                         apiary::testing::scheduler_name);

}  // namespace
}  // namespace apiary
