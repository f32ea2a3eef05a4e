#!/usr/bin/env bash
# Session 41: every TASSL sub-graph task (and tassl-kernels' block) 1024 threads wide instead of 256.
sed -i 's/inline constexpr int kTasslThreads = 256;/inline constexpr int kTasslThreads = 1024;/' tasks/sptrsv/device_plan.hpp
grep -q "kTasslThreads = 1024;" tasks/sptrsv/device_plan.hpp
