#!/usr/bin/env bash
# The row tasks' stage for 1024 entries instead of 4096 (15.4 instead of 40 KB of shared memory a block).
sed -i 's/^inline constexpr int kStageEntries = 4096;/inline constexpr int kStageEntries = 1024;/' tasks/jacobi/device.cuh
grep -q "kStageEntries = 1024;" tasks/jacobi/device.cuh
