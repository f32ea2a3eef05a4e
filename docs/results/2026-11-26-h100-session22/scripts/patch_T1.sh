#!/usr/bin/env bash
# Experiment: the tasks variant's widest narrow level (and every shared array sized by it) 1024 instead of 2048: less shared memory per block, more L1.
sed -i 's/inline constexpr int kMaxTaskTile = 2048;/inline constexpr int kMaxTaskTile = 1024;/' tasks/rcm/rcm_gpu.hpp
grep -n "kMaxTaskTile = " tasks/rcm/rcm_gpu.hpp
