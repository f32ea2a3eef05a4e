// The generic program on the device: every scheduler in both modes runs each tree
// completely, every instance once and after all of its parents.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <ostream>
#include <stdexcept>
#include <string>
#include <tuple>

#include "schedulers/run.cuh"
#include "tasks/generic/generic.hpp"
#include "tests/runtime/scheduler_param.hpp"

// Readable parameters in test listings instead of raw bytes (found by ADL).
namespace apiary::generic {
inline void PrintTo(GenericMode mode, std::ostream* out) { *out << to_string(mode); }
}  // namespace apiary::generic

namespace apiary::generic {
namespace {

const std::string kConfigDir = std::string(APIARY_SOURCE_DIR) + "/tasks/generic/configs/";

// Joins of different worker sizes, a probability below 1, two root types.
constexpr const char* kSmall = R"({
  "name": "small", "seed": 5,
  "types": [
    {"threads": 256, "flops": 20000}, {"threads": 32, "flops": 4000}, {"threads": 64, "flops": 8000},
    {"threads": 128, "flops": 1000}, {"threads": 32, "flops": 0}, {"threads": 64, "flops": 500}
  ],
  "roots": [{"type": 0, "count": 40}, {"type": 1, "count": 10}],
  "transitions": [
    {"from": 0, "to": 1, "fanout": 3},
    {"from": 0, "to": 2, "fanout": 2, "probability": 0.7},
    {"join": [1, 2], "to": 3},
    {"from": 1, "to": 4, "fanout": 2},
    {"join": [4], "to": 5}
  ]
})";

using Param = std::tuple<Scheduler, GenericMode>;

class Generic : public ::testing::TestWithParam<Param> {
 protected:
  void SetUp() override { APIARY_REQUIRE_GPU(); }

  void run_and_check(const ExecutionTree& tree) {
    const auto [scheduler, mode] = GetParam();
    RunOptions options;
    options.trace = kTraceKernels;  // one record per task, where the build has traced kernels
    const GenericRun run = run_generic(tree, mode, scheduler, options);
    EXPECT_EQ(verify(tree, run), "");
    EXPECT_EQ(run.stats.total_tasks(), tree.size());
    EXPECT_EQ(run.trace.size(), options.trace ? tree.size() : 0);
    if (mode == GenericMode::phases) {
      EXPECT_EQ(run.stats.phase_switches, tree.max_depth()) << "one switch between consecutive depths";
    } else {
      EXPECT_EQ(run.stats.phase_switches, 0u);
      EXPECT_LE(run.stats.peak_waiting, tree.size());
    }
  }
};

// Under compute-sanitizer (APIARY_TEST_QUICK set) the shipped configs keep their
// shape but lose most of their work, which the ordering checks do not need.
GenericConfig quick(GenericConfig c) {
  if (std::getenv("APIARY_TEST_QUICK") == nullptr) return c;
  for (auto& t : c.types) t.flops /= 1024;
  for (auto& r : c.roots) r.count = std::max<std::uint64_t>(r.count / 16, 2);
  return c;
}

TEST_P(Generic, SmallConfig) { run_and_check(expand(parse_generic_config(kSmall, "small.json"))); }

TEST_P(Generic, FourTypes) { run_and_check(expand(quick(load_generic_config(kConfigDir + "four_types.json")))); }

TEST_P(Generic, ElevenTypes) { run_and_check(expand(quick(load_generic_config(kConfigDir + "eleven_types.json")))); }

TEST_P(Generic, RepeatedRunsAgree) {
  const auto [scheduler, mode] = GetParam();
  const ExecutionTree tree = expand(parse_generic_config(kSmall, "small.json"));
  const GenericRun first = run_generic(tree, mode, scheduler, RunOptions{});
  const GenericRun second = run_generic(tree, mode, scheduler, RunOptions{});
  EXPECT_EQ(verify(tree, second), "");
  ASSERT_EQ(first.stats.types.size(), second.stats.types.size());
  for (std::size_t q = 0; q < first.stats.types.size(); ++q)
    EXPECT_EQ(first.stats.types[q].executed, second.stats.types[q].executed) << first.stats.types[q].name;
}

std::string param_name(const ::testing::TestParamInfo<Param>& info) {
  return std::string(to_string(std::get<0>(info.param))) + "_" + std::string(to_string(std::get<1>(info.param)));
}

INSTANTIATE_TEST_SUITE_P(SchedulersAndModes, Generic,
                         ::testing::Combine(apiary::testing::all_schedulers(),
                                            ::testing::Values(GenericMode::phases, GenericMode::dependencies)),
                         param_name);

// Refused on the host before anything touches the device, so it runs without a GPU.
TEST(GenericChecks, PhasesModeRejectsTreesDeeperThanItsPhases) {
  std::string types, transitions;
  for (int i = 0; i < 10; ++i) {
    types += std::string(i ? ", " : "") + R"({"threads": 32, "flops": 0})";
    if (i > 0) transitions += std::string(i > 1 ? ", " : "") + R"({"from": )" + std::to_string(i - 1) +
                              R"(, "to": )" + std::to_string(i) + "}";
  }
  const ExecutionTree chain = expand(parse_generic_config(
      R"({"types": [)" + types + R"(], "roots": [{"type": 0, "count": 1}], "transitions": [)" + transitions + "]}",
      "chain.json"));
  ASSERT_EQ(chain.max_depth(), 9u);
  try {
    run_generic(chain, GenericMode::phases, Scheduler::megakernel, RunOptions{});
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("10 levels deep"), std::string::npos) << message;
    EXPECT_NE(message.find("8 phases"), std::string::npos) << message;
    EXPECT_NE(message.find("dependencies mode"), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace apiary::generic
