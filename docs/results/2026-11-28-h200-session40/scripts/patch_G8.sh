#!/usr/bin/env bash
# kGatherBatch 8 (8 entries a thread at once in the staged update) and every row task capped at 3 blocks per SM.
sed -i 's/^inline constexpr int kGatherBatch = 4;/inline constexpr int kGatherBatch = 8;/' tasks/jacobi/device.cuh
sed -i 's/  static constexpr int min_blocks_per_sm = V == Variant::stages_phases || V == Variant::checkpoints ? 3 : 0;/  static constexpr int min_blocks_per_sm = 3;/' tasks/jacobi/tasks.cu
grep -q "kGatherBatch = 8;" tasks/jacobi/device.cuh && grep -q "min_blocks_per_sm = 3;" tasks/jacobi/tasks.cu
