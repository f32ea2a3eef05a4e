// A task that never returns: the watchdog reports and stops the kernel instead of
// hanging the GPU. This leaves the CUDA context unusable, hence its own process.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "schedulers/run.cuh"
#include "tests/runtime/scheduler_param.hpp"

namespace apiary {
namespace {

struct Stuck {
  using Item = int;
  static constexpr int threads = 32;
  static constexpr int shared_bytes = 0;
  template <class Ctx>
  __device__ static void execute(const Item&, Ctx&) {
    volatile int never = 0;
    while (never == 0) __nanosleep(1000);  // ignores ctx.aborted(): a genuinely stuck task
  }
};
using StuckProgram = Program<Phaseless<Stuck>>;

TEST(Watchdog, StopsAKernelWhoseTaskNeverReturns) {
  APIARY_REQUIRE_GPU();
  RunOptions opt;
  opt.watchdog_seconds = 0.5;
  Runtime<StuckProgram> rt(opt);
  rt.seed<Stuck>(0);
  const auto t0 = std::chrono::steady_clock::now();
  try {
    rt.run(Scheduler::megakernel);
    FAIL() << "expected the watchdog";
  } catch (const WatchdogError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("never returned"), std::string::npos) << msg;
    EXPECT_NE(msg.find("1 task(s) queued or running"), std::string::npos) << msg;
  }
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(20));
}

}  // namespace
}  // namespace apiary
