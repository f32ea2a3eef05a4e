#!/usr/bin/env bash
# Session 34, call R5: the row bounds of claimed vertices loaded as they are claimed (new = the working tree) against 756ad5c (old):
# all RCM GPU tests, bench_rcm (new has the "no bitmap" row: the same build without it), then memcheck and synccheck.
# Copy to .run/ with session 32's docs/results/2026-11-27-h200-h100-session32/scripts/setup3.sh; old = 756ad5c copied to .snapshot/.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
( JOBS=10 .run/setup3.sh "bench_rcm test_rcm_gpu" new ) &
( JOBS=6 .run/setup3.sh "bench_rcm" old ) &
wait
echo "built at $SECONDS s"
timeout 150 build/new/tests/tasks/rcm/test_rcm_gpu > $OUT/r5_test_rcm_gpu.log 2>&1; echo "test_rcm_gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $OUT/r5_test_rcm_gpu.log | tr '\n' ' ') at $SECONDS s"
for t in new old new old; do
  [ $SECONDS -gt 380 ] && { echo "stopped before $t (time)"; break; }
  timeout 100 build/$t/bench/bench_rcm --no-shared --reps 3 >> $OUT/r5_rcm_$t.log 2>&1; echo "== rcm $t at $SECONDS s"
  grep -E "tasks" $OUT/r5_rcm_$t.log | tail -12 | grep megakernel | cut -c1-20,60-220
done
S='*RcmGpu.MatchesSerialOnSmallGraphs/tasks*:*RcmGpu.MatchesRcmFromGivenRoots/tasks_megakernel:*LevelPathGivesUp*/tasks_megakernel:*LevelsAreOrderedDuringTheLastSearch/tasks*:*BfsTakesTheBitmap*/tasks_megakernel'
for tool in memcheck synccheck; do
  [ $SECONDS -gt 500 ] && { echo "$tool not run (time)"; continue; }
  APIARY_TEST_QUICK=1 timeout $((560 - SECONDS)) compute-sanitizer --tool $tool --error-exitcode 3 build/new/tests/tasks/rcm/test_rcm_gpu --gtest_filter="$S" > $OUT/r5_$tool.txt 2>&1; echo "$tool rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/r5_$tool.txt | tr '\n' ' ') at $SECONDS s"
done
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log $OUT/*.txt 2>/dev/null
echo "all done at $SECONDS s"
