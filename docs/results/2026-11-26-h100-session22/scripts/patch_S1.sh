#!/usr/bin/env bash
# Experiment: V4's hash sets in the narrow BFS, with 2048-slot sets (24 KB instead of 48 KB).
root=$1
git apply $root/docs/results/2026-11-26-h100-session22/narrow_bfs_sets.diff || patch -p1 < $root/docs/results/2026-11-26-h100-session22/narrow_bfs_sets.diff
sed -i 's/constexpr int kSetBits = 12;/constexpr int kSetBits = 11;/; s/static_assert(kSetSlots >= 2 \* kMaxTaskTile);//' tasks/rcm/rcm_tasks.cu
grep -n "kSetBits = \|static_assert(kSetSlots" tasks/rcm/rcm_tasks.cu
