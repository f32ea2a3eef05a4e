// Device utilities that can be checked on any machine: error messages name the call
// and the place, the no-device check agrees with what the CUDA runtime says, and the
// watchdog's limit under compute-sanitizer.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <string>

#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"
#include "runtime/run_options.hpp"

namespace apiary {
namespace {

TEST(CudaCheck, ErrorNamesTheCallTheErrorAndThePlace) {
  try {
    APIARY_CUDA_CHECK(cudaErrorInvalidValue);
    FAIL() << "expected a CudaError";
  } catch (const CudaError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("cudaErrorInvalidValue failed: cudaErrorInvalidValue"), std::string::npos) << msg;
    EXPECT_NE(msg.find("test_device.cpp:"), std::string::npos) << msg;
    EXPECT_EQ(e.code(), cudaErrorInvalidValue);
  }
  EXPECT_NO_THROW(APIARY_CUDA_CHECK(cudaSuccess));
}

TEST(Device, NoDeviceReasonAgreesWithTheRuntime) {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  const auto reason = no_device_reason();
  if (err != cudaSuccess || count == 0) {
    ASSERT_TRUE(reason.has_value());
    EXPECT_FALSE(reason->empty());
    EXPECT_THROW(query_device(0), CudaError);  // a clear error, not a crash
  } else {
    ASSERT_FALSE(reason.has_value()) << *reason;
    const DeviceInfo d = query_device();
    EXPECT_GT(d.multiprocessors, 0);
    EXPECT_GT(d.shared_per_block, 0u);
    EXPECT_FALSE(d.name.empty());
    EXPECT_NE(describe(d).find(d.name), std::string::npos);
  }
}

// Under compute-sanitizer a run's watchdog waits kSanitizerWatchdogScale times as long; off
// stays off, and outside it the limit is the one asked for.
TEST(Device, WatchdogLimitIsScaledUnderComputeSanitizer) {
  RunOptions o;
  o.watchdog_seconds = 0.5;
  EXPECT_EQ(watchdog_limit_seconds(o, false), 0.5);
  EXPECT_EQ(watchdog_limit_seconds(o, true), 0.5 * kSanitizerWatchdogScale);
  EXPECT_GT(kSanitizerWatchdogScale, 1.0);
  o.watchdog_seconds = 0;
  EXPECT_EQ(watchdog_limit_seconds(o, true), 0.0);
}

}  // namespace
}  // namespace apiary
