#!/usr/bin/env bash
# Every row task capped at 3 blocks per SM (alone).
sed -i 's/  static constexpr int min_blocks_per_sm = V == Variant::stages_phases || V == Variant::checkpoints ? 3 : 0;/  static constexpr int min_blocks_per_sm = 3;/' tasks/jacobi/tasks.cu
grep -q "min_blocks_per_sm = 3;" tasks/jacobi/tasks.cu
