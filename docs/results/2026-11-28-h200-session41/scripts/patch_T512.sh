#!/usr/bin/env bash
# Session 41: every TASSL sub-graph task (and tassl-kernels' block) 512 threads wide instead of 256.
sed -i 's/inline constexpr int kTasslThreads = 256;/inline constexpr int kTasslThreads = 512;/' tasks/sptrsv/device_plan.hpp
grep -q "kTasslThreads = 512;" tasks/sptrsv/device_plan.hpp
