// Program tests are parameterized over the schedulers: a program must give the same
// result under each. Add a scheduler here and every runtime test covers it.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <ostream>
#include <string>

#include "runtime/scheduler.hpp"
#include "tests/gpu_test.hpp"

namespace apiary {
// Readable scheduler parameters in test listings instead of raw bytes (found by ADL).
inline void PrintTo(Scheduler s, std::ostream* out) { *out << to_string(s); }
}  // namespace apiary

namespace apiary::testing {

// Every scheduler this build can run (the controller only with -DAPIARY_CONTROLLER=ON).
inline auto all_schedulers() { return ::testing::ValuesIn(available_schedulers()); }

inline std::string scheduler_name(const ::testing::TestParamInfo<Scheduler>& info) {
  return std::string(to_string(info.param));
}

// Problem sizes shrink by 16 when APIARY_TEST_QUICK is set: compute-sanitizer
// (racecheck above all) slows persistent kernels down by orders of magnitude.
inline int scaled(int n, int minimum = 2) {
  if (std::getenv("APIARY_TEST_QUICK") == nullptr) return n;
  return n / 16 > minimum ? n / 16 : minimum;
}

class SchedulerTest : public ::testing::TestWithParam<Scheduler> {
 protected:
  void SetUp() override { APIARY_REQUIRE_GPU(); }
};

// Tests of a task that does not return until the watchdog stops it: under compute-sanitizer
// the time-sliced and controller schedulers run without their guard (runtime/device.hpp),
// so nothing would stop it. The megakernel's watchdog lives in its own kernel.
#define APIARY_SKIP_STUCK_TASK_TEST_UNDER_SANITIZER(scheduler)                                        \
  do {                                                                                                 \
    if ((scheduler) != ::apiary::Scheduler::megakernel && ::apiary::under_compute_sanitizer())         \
      GTEST_SKIP() << "no watchdog guard under compute-sanitizer for " << ::apiary::to_string(scheduler); \
  } while (0)

}  // namespace apiary::testing
