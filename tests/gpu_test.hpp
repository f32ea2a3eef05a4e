// GPU tests call APIARY_REQUIRE_GPU() first: without a usable device they skip with
// the reason, visibly (ctest lists them as skipped), instead of failing or passing.
#pragma once

#include <gtest/gtest.h>

#include "runtime/device.hpp"

#define APIARY_REQUIRE_GPU()                                              \
  do {                                                                    \
    if (const auto apiary_no_gpu = ::apiary::no_device_reason())          \
      GTEST_SKIP() << "GPU test skipped: " << *apiary_no_gpu;             \
  } while (0)
