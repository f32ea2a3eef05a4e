#!/usr/bin/env bash
# Session 32 Q10: the BFS's direct path (one barrier a narrow level; new, uncommitted) vs HEAD (old: 512 threads, edge-balanced
# narrow levels only): test_rcm_gpu first, then bench_rcm alternated, then memcheck/synccheck of the RCM tests if time is left.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
( JOBS=10 .run/setup3.sh "bench_rcm test_rcm_gpu" new ) &
( JOBS=6 .run/setup3.sh "bench_rcm" old ) &
wait
echo "built at $SECONDS s"
timeout 60 build/new/tests/tasks/rcm/test_rcm_gpu > $OUT/q10_test_rcm_gpu.log 2>&1; echo "test_rcm_gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/q10_test_rcm_gpu.log | tr '\n' ' ') at $SECONDS s"
grep -E "^\[  FAILED" $OUT/q10_test_rcm_gpu.log | head -5
for t in new old new old; do
  [ $SECONDS -gt 250 ] && { echo "stopped before $t (time)"; break; }
  timeout 60 build/$t/bench/bench_rcm --no-shared --reps 3 >> $OUT/q10_rcm_$t.log 2>&1; echo "== rcm $t at $SECONDS s"
  grep -E "megakernel  |timesliced  " $OUT/q10_rcm_$t.log | tail -6 | cut -c1-20,90-200
done
S='*RcmGpu.MatchesSerialOnSmallGraphs/*:*RcmGpu.MatchesRcmFromGivenRoots/tasks*:*LevelPathGivesUp*:*OtherLevelPaths/tasks_megakernel:*LevelsAreOrderedDuringTheLastSearch/tasks*'
for tool in synccheck memcheck; do
  [ $SECONDS -gt 300 ] && { echo "$tool not run (time)"; continue; }
  timeout $((370 - SECONDS)) compute-sanitizer --tool $tool --error-exitcode 3 build/new/tests/tasks/rcm/test_rcm_gpu --gtest_filter="$S" > $OUT/q10_$tool.txt 2>&1; echo "$tool rc $? $(grep -E 'ERROR SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/q10_$tool.txt | tr '\n' ' ') at $SECONDS s"
done
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log $OUT/*.txt 2>/dev/null
echo "all done at $SECONDS s"
