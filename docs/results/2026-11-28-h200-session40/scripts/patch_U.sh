#!/usr/bin/env bash
# No register cap for the autonomous and stages-deps row tasks (as at the session's start).
sed -i 's/  static constexpr int min_blocks_per_sm = 3;/  static constexpr int min_blocks_per_sm = V == Variant::stages_phases || V == Variant::checkpoints ? 3 : 0;/' tasks/jacobi/tasks.cu
grep -q "V == Variant::checkpoints ? 3 : 0;" tasks/jacobi/tasks.cu
