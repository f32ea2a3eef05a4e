#!/usr/bin/env bash
# For the next session (not run in session 33): the bitmap change (newB) against the tree (old = a copy in .snapshot/):
# its RCM tests, bench_rcm alternated, then memcheck/synccheck/racecheck of the RCM tests if it is faster.
# Copy to .run/ with patch_B.sh and session 32's scripts/setup3.sh; run from the repository root.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
( JOBS=10 .run/setup3.sh "bench_rcm test_rcm_gpu" newB ) &
( JOBS=6 .run/setup3.sh "bench_rcm" old ) &
wait
echo "built at $SECONDS s"
timeout 90 build/newB/tests/tasks/rcm/test_rcm_gpu > $OUT/b_test_rcm_gpu.log 2>&1; echo "test_rcm_gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/b_test_rcm_gpu.log | tr '\n' ' ') at $SECONDS s"
for t in newB old newB old; do
  [ $SECONDS -gt 330 ] && { echo "stopped before $t (time)"; break; }
  timeout 90 build/$t/bench/bench_rcm --no-shared --reps 3 >> $OUT/b_rcm_$t.log 2>&1; echo "== rcm $t at $SECONDS s"
  grep -E "megakernel  |timesliced  " $OUT/b_rcm_$t.log | tail -6 | cut -c1-20,90-200
done
S='*RcmGpu.MatchesSerialOnSmallGraphs/*:*RcmGpu.MatchesRcmFromGivenRoots/tasks*:*LevelPathGivesUp*:*OtherLevelPaths/tasks_megakernel:*LevelsAreOrderedDuringTheLastSearch/tasks*:*MatchesSerialOnLargerGraphs/tasks_megakernel'
for tool in memcheck synccheck; do
  [ $SECONDS -gt 420 ] && { echo "$tool not run (time)"; continue; }
  APIARY_TEST_QUICK=1 timeout $((500 - SECONDS)) compute-sanitizer --tool $tool --error-exitcode 3 build/newB/tests/tasks/rcm/test_rcm_gpu --gtest_filter="$S" > $OUT/b_$tool.txt 2>&1; echo "$tool rc $? $(grep -E 'ERROR SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/b_$tool.txt | tr '\n' ' ') at $SECONDS s"
done
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log $OUT/*.txt 2>/dev/null
echo "all done at $SECONDS s"
