// GPU tests call APIARY_REQUIRE_GPU() first: without a usable device they skip with
// the reason, visibly (ctest lists them as skipped), instead of failing or passing.
#pragma once

#include <gtest/gtest.h>

#include "runtime/device.hpp"
#include "runtime/run_options.hpp"

#define APIARY_REQUIRE_GPU()                                              \
  do {                                                                    \
    if (const auto apiary_no_gpu = ::apiary::no_device_reason())          \
      GTEST_SKIP() << "GPU test skipped: " << *apiary_no_gpu;             \
  } while (0)

// Tests that run with RunOptions::trace: a build configured with
// APIARY_TRACE_KERNELS=OFF has no traced kernels and refuses such runs.
#define APIARY_REQUIRE_TRACE_KERNELS()                                              \
  do {                                                                              \
    if (!::apiary::kTraceKernels) GTEST_SKIP() << "built without traced kernels (APIARY_TRACE_KERNELS=OFF)"; \
  } while (0)
