#!/usr/bin/env bash
# Session 33 R1: Narrow BFS levels claimed in shared-memory hash tables (new, uncommitted) vs HEAD (old):
# test_rcm_gpu first, then bench_rcm alternated, then memcheck/synccheck/racecheck of the RCM tests.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
( JOBS=10 .run/setup3.sh "bench_rcm test_rcm_gpu" new ) &
( JOBS=6 .run/setup3.sh "bench_rcm" old ) &
wait
echo "built at $SECONDS s"
timeout 90 build/new/tests/tasks/rcm/test_rcm_gpu > $OUT/r1_test_rcm_gpu.log 2>&1; echo "test_rcm_gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/r1_test_rcm_gpu.log | tr '\n' ' ') at $SECONDS s"
grep -E "^\[  FAILED|Failure" $OUT/r1_test_rcm_gpu.log | head -8
for t in new old new old; do
  [ $SECONDS -gt 330 ] && { echo "stopped before $t (time)"; break; }
  timeout 70 build/$t/bench/bench_rcm --no-shared --reps 3 >> $OUT/r1_rcm_$t.log 2>&1; echo "== rcm $t at $SECONDS s"
  grep -E "megakernel  |timesliced  " $OUT/r1_rcm_$t.log | tail -6 | cut -c1-20,90-200
done
S='*RcmGpu.MatchesSerialOnSmallGraphs/*:*RcmGpu.MatchesRcmFromGivenRoots/tasks*:*LevelPathGivesUp*:*OtherLevelPaths/tasks_megakernel:*LevelsAreOrderedDuringTheLastSearch/tasks*'
for tool in memcheck synccheck; do
  [ $SECONDS -gt 440 ] && { echo "$tool not run (time)"; continue; }
  timeout $((540 - SECONDS)) compute-sanitizer --tool $tool --error-exitcode 3 build/new/tests/tasks/rcm/test_rcm_gpu --gtest_filter="$S" > $OUT/r1_$tool.txt 2>&1; echo "$tool rc $? $(grep -E 'ERROR SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/r1_$tool.txt | tr '\n' ' ') at $SECONDS s"
done
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log $OUT/*.txt 2>/dev/null
echo "all done at $SECONDS s"
