#!/usr/bin/env bash
# Session 33 R5: Narrow BFS levels claimed in shared-memory hash tables probed in rounds (new, uncommitted) vs HEAD (old):
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
timeout 90 build/new/tests/tasks/rcm/test_rcm_gpu > $OUT/r5_test_rcm_gpu.log 2>&1; echo "test_rcm_gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/r5_test_rcm_gpu.log | tr '\n' ' ') at $SECONDS s"
grep -E "^\[  FAILED|Failure" $OUT/r5_test_rcm_gpu.log | head -8
for t in new old new old; do
  [ $SECONDS -gt 330 ] && { echo "stopped before $t (time)"; break; }
  timeout 70 build/$t/bench/bench_rcm --no-shared --reps 3 >> $OUT/r5_rcm_$t.log 2>&1; echo "== rcm $t at $SECONDS s"
  grep -E "megakernel  |timesliced  " $OUT/r5_rcm_$t.log | tail -6 | cut -c1-20,90-200
done
n=$(grep -m1 "poisson2d.*tasks megakernel  " $OUT/r5_rcm_new.log | awk '{print $(NF-6)}'); o=$(grep -m1 "poisson2d.*tasks megakernel  " $OUT/r5_rcm_old.log | awk '{print $(NF-6)}')
echo "2D search new $n old $o"
if python3 -c "import sys; sys.exit(0 if float('$n') < 0.95 * float('$o') else 1)"; then echo "faster: sanitizers"; else echo "not faster: no sanitizers"; sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log 2>/dev/null; exit 0; fi
S='*RcmGpu.MatchesSerialOnSmallGraphs/*:*RcmGpu.MatchesRcmFromGivenRoots/tasks*:*LevelPathGivesUp*:*OtherLevelPaths/tasks_megakernel:*LevelsAreOrderedDuringTheLastSearch/tasks*'
for tool in memcheck synccheck; do
  [ $SECONDS -gt 400 ] && { echo "$tool not run (time)"; continue; }
  timeout $((480 - SECONDS)) compute-sanitizer --tool $tool --error-exitcode 3 build/new/tests/tasks/rcm/test_rcm_gpu --gtest_filter="$S" > $OUT/r5_$tool.txt 2>&1; echo "$tool rc $? $(grep -E 'ERROR SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/r5_$tool.txt | tr '\n' ' ') at $SECONDS s"
done
timeout 100 compute-sanitizer --tool racecheck --error-exitcode 3 build/new/tests/tasks/rcm/test_rcm_gpu --gtest_filter='*RcmGpu.MatchesSerialOnSmallGraphs/tasks_megakernel:*LevelPathGivesUp*/tasks_megakernel' > $OUT/r5_racecheck.txt 2>&1; echo "racecheck rc $? $(grep -E 'RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/r5_racecheck.txt | tr '\n' ' ') at $SECONDS s"
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log $OUT/*.txt 2>/dev/null
echo "all done at $SECONDS s"
