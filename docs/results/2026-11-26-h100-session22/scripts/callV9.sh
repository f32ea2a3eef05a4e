#!/usr/bin/env bash
# Session 22 V9: why V4's sets were slow. newS1: the sets with 2048 slots (24 KB); newS3: no sets, only the sets' 48 KB of shared memory; new: HEAD.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=5 .run/setup3.sh "bench_rcm test_rcm_gpu" new newS1 newS3
echo "built at $SECONDS s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 100 build/newS1/tests/tasks/rcm/test_rcm_gpu --gtest_filter='*tasks_megakernel*' > $OUT/test_rcm_gpu_S1.log 2>&1; echo "S1 tests rc $? $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/test_rcm_gpu_S1.log | tr '\n' ' ')"
i=0; for t in new newS1 newS3 new; do i=$((i+1)); timeout 100 build/$t/bench/bench_rcm --no-shared --reps 3 > $OUT/bench_rcm_${i}_$t.log 2>&1; echo "bench $t rc $?"; grep -E "tasks megakernel +[0-9]|tasks timesliced" $OUT/bench_rcm_${i}_$t.log; done
sed -i "s#$PWD#.#g" $OUT/*
echo "all done at $SECONDS s"
