#!/usr/bin/env bash
# Session 32 Q3: the tree with RCM's task types at 512 threads (new) vs 0af9387 (old), alternated; the new tree's tests,
# compute-sanitizer memcheck/synccheck/racecheck of the RCM GPU tests, and the CLI.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
( JOBS=11 .run/setup3.sh "bench_rcm test_rcm_gpu test_rcm_host test_apps apiary" new ) &
( JOBS=5 .run/setup3.sh "bench_rcm" old ) &
wait
echo "built at $SECONDS s"
for t in old new old new; do
  timeout 200 build/$t/bench/bench_rcm --no-shared --reps 3 >> $OUT/q3_rcm_$t.log 2>&1; echo "== rcm $t at $SECONDS s"
  grep -E "megakernel  |timesliced  " $OUT/q3_rcm_$t.log | tail -6 | cut -c1-20,90-200
done
for t in test_rcm_gpu test_rcm_host test_apps; do f=$(find build/new/tests -name $t -type f | head -1)
  timeout 200 $f > $OUT/q3_$t.log 2>&1; echo "$t rc $? $(grep -E "^\[  PASSED|^\[  FAILED|SKIPPED \] [0-9]" $OUT/q3_$t.log | tr '\n' ' ') at $SECONDS s"
done
S='*RcmGpu.MatchesSerialOnSmallGraphs/*:*RcmGpu.MatchesRcmFromGivenRoots/tasks*:*LevelPathGivesUp*:*OtherLevelPaths/tasks_megakernel:*LevelsAreOrderedDuringTheLastSearch/tasks*'
for tool in memcheck synccheck; do timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 build/new/tests/tasks/rcm/test_rcm_gpu --gtest_filter="$S" > $OUT/q3_$tool.txt 2>&1; echo "$tool rc $? $(grep -E 'ERROR SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/q3_$tool.txt | tr '\n' ' ') at $SECONDS s"; done
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 3 build/new/tests/tasks/rcm/test_rcm_gpu --gtest_filter='*RcmGpu.MatchesSerialOnSmallGraphs/tasks*' > $OUT/q3_racecheck.txt 2>&1; echo "racecheck rc $? $(grep -E 'RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/q3_racecheck.txt | tr '\n' ' ') at $SECONDS s"
build/new/apps/apiary rcm .matrices/fe_4elt2.mtx.gz --variant all --scheduler all > $OUT/q3_apiary_rcm_fe_4elt2.txt 2>&1; echo "apiary rcm rc $?"; tail -12 $OUT/q3_apiary_rcm_fe_4elt2.txt
sed -i "s#$PWD#.#g" $OUT/*.log $OUT/*.txt
echo "all done at $SECONDS s"
