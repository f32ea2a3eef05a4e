#!/usr/bin/env bash
# Session 35 S6: padded rows for the bitmap's BFS levels (new = the working tree): RCM tests, bench_rcm
# (the "no padding" row is the same build without them, in the same process), then the sanitizers on the
# small graphs under the megakernel (their 30 x 30 and 8 x 7 x 6 grids reach the padded levels).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
JOBS=16 .run/setup3.sh "bench_rcm test_rcm_gpu" new
echo "built at $SECONDS s"
timeout 60 build/new/tests/tasks/rcm/test_rcm_gpu > $OUT/s6_test_rcm_gpu.log 2>&1; echo "test_rcm_gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $OUT/s6_test_rcm_gpu.log | tr '\n' ' ') at $SECONDS s"
grep -E "Failure|Expected|Which is|actual" $OUT/s6_test_rcm_gpu.log | head -10
timeout 90 build/new/bench/bench_rcm --no-shared --reps 3 > $OUT/s6_rcm_new.log 2>&1; echo "== rcm new at $SECONDS s"
grep -E "megakernel" $OUT/s6_rcm_new.log | cut -c1-20,60-220
S='*RcmGpu.MatchesSerialOnSmallGraphs/tasks_megakernel'
for tool in memcheck synccheck racecheck; do
  [ $SECONDS -gt 285 ] && { echo "$tool not run (time)"; continue; }
  APIARY_TEST_QUICK=1 timeout $((320 - SECONDS)) compute-sanitizer --tool $tool --error-exitcode 3 build/new/tests/tasks/rcm/test_rcm_gpu --gtest_filter="$S" > $OUT/s6_$tool.txt 2>&1; echo "$tool rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/s6_$tool.txt | tr '\n' ' ') at $SECONDS s"
done
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log $OUT/*.txt 2>/dev/null
echo "all done at $SECONDS s"
