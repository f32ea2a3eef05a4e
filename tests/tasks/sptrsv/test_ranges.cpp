// The analysis's parallel passes (tasks/sptrsv/ranges.hpp): every range runs once, nested
// and concurrent calls finish, and the first failing range's exception is the one seen.
#include <atomic>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "tasks/sptrsv/ranges.hpp"

namespace {

using apiary::sptrsv::detail::for_each_range;
using apiary::sptrsv::detail::side_by_side;

std::vector<std::size_t> starts(std::size_t ranges) {
  std::vector<std::size_t> begin(ranges + 1);
  for (std::size_t r = 0; r <= ranges; ++r) begin[r] = 3 * r;
  return begin;
}

TEST(Ranges, EveryRangeRunsOnceWithItsBounds) {
  for (std::size_t ranges : {1u, 2u, 3u, 16u, 40u}) {
    std::vector<std::atomic<int>> runs(ranges);
    for_each_range(starts(ranges), [&](std::size_t r, std::size_t b, std::size_t e) {
      EXPECT_EQ(b, 3 * r);
      EXPECT_EQ(e, 3 * r + 3);
      ++runs[r];
    });
    for (std::size_t r = 0; r < ranges; ++r) EXPECT_EQ(runs[r].load(), 1) << ranges << " ranges, range " << r;
  }
}

// Candidates call for_each_range from inside a range: the inner calls must finish even
// when every pool thread is busy with an outer range.
TEST(Ranges, NestedAndConcurrentCallsFinish) {
  std::atomic<int> inner{0};
  auto nested = [&] {
    for_each_range(starts(9), [&](std::size_t, std::size_t, std::size_t) {
      for_each_range(starts(4), [&](std::size_t, std::size_t, std::size_t) { ++inner; });
    });
  };
  std::vector<std::thread> callers;
  for (int t = 0; t < 3; ++t) callers.emplace_back(nested);
  nested();
  for (std::thread& t : callers) t.join();
  EXPECT_EQ(inner.load(), 4 * 9 * 4);
}

TEST(Ranges, TheFirstFailingRangeIsReported) {
  std::atomic<int> runs{0};
  try {
    for_each_range(starts(12), [&](std::size_t r, std::size_t, std::size_t) {
      ++runs;
      if (r == 7 || r == 3) throw std::runtime_error("range " + std::to_string(r));
    });
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "range 3");
  }
  EXPECT_EQ(runs.load(), 12);  // the others still ran
}

TEST(Ranges, SideBySideRunsEveryPassAndReportsTheFirstFailure) {
  int a = 0, b = 0, c = 0;
  side_by_side([&] { a = 1; }, [&] { b = 2; }, [&] { c = 3; });
  EXPECT_EQ(a + b + c, 6);
  std::atomic<int> runs{0};
  try {
    side_by_side([&] { ++runs; }, [&] { ++runs; throw std::runtime_error("second"); },
                 [&] { ++runs; throw std::runtime_error("third"); });
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "second");
  }
  EXPECT_EQ(runs.load(), 3);
}

}  // namespace
