// The NVTX ranges a user sees in Nsight Systems, recorded by a static NVTX injection
// (nvtx_recorder.cpp) in place of the tool: every run is a range "apiary run: <scheduler>"
// in the domain "apiary", and the time-sliced scheduler nests one range per phase in it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runtime/nvtx.hpp"
#include "schedulers/run.cuh"
#include "tests/gpu_test.hpp"
#include "tests/runtime/nvtx_recorder.hpp"

namespace apiary {
namespace {

using apiary::testing::take_nvtx_events;
using Events = std::vector<std::string>;

// Runs on any machine: the range type itself, and that the recorder sees it.
TEST(Nvtx, RangesAreRecordedInTheApiaryDomain) {
  take_nvtx_events();
  {
    const NvtxRange outer{"outer"};
    const NvtxRange inner{"inner"};
  }
  EXPECT_EQ(take_nvtx_events(), (Events{"push apiary outer", "push apiary inner", "pop apiary", "pop apiary"}));
}

struct Second {
  using Item = int;
  static constexpr int threads = 32;
  static constexpr int shared_bytes = 0;
  template <class Ctx>
  __device__ static void execute(const Item&, Ctx&) {}
};
struct First {
  using Item = int;
  static constexpr int threads = 32;
  static constexpr int shared_bytes = 0;
  template <class Ctx>
  __device__ static void execute(const Item& i, Ctx& ctx) {
    if (ctx.rank() == 0) ctx.template enqueue<Second>(i);
  }
};
using TwoPhases = Program<Phase<First>, Phase<Second>>;

Events run_two_phases(Scheduler scheduler) {
  Runtime<TwoPhases> rt;
  rt.seed<First>(std::vector<int>{1, 2, 3});
  take_nvtx_events();
  const RunStats s = rt.run(scheduler);
  EXPECT_EQ(s.total_tasks(), 6u);
  return take_nvtx_events();
}

TEST(Nvtx, AMegakernelRunIsOneRange) {
  APIARY_REQUIRE_GPU();
  EXPECT_EQ(run_two_phases(Scheduler::megakernel), (Events{"push apiary apiary run: megakernel", "pop apiary"}));
}

TEST(Nvtx, ATimeSlicedRunHasARangePerPhase) {
  APIARY_REQUIRE_GPU();
  EXPECT_EQ(run_two_phases(Scheduler::timesliced),
            (Events{"push apiary apiary run: timesliced", "push apiary phase 0", "pop apiary", "push apiary phase 1",
                    "pop apiary", "pop apiary"}));
}

}  // namespace
}  // namespace apiary
