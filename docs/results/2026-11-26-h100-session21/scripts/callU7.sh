#!/usr/bin/env bash
# Session 21 U7: wide levels of the level path spread over RankWide tasks (new) vs 77fb1fe (old, one task per wide level): tests, bench both, sanitizers.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=8 .run/setup3.sh "test_rcm_gpu bench_rcm" new old
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
timeout 300 build/new/tests/tasks/rcm/test_rcm_gpu > $OUT/test_rcm_gpu.log 2>&1; echo "test_rcm_gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/test_rcm_gpu.log | tr '\n' ' ')"
grep -E "Failure" -A6 $OUT/test_rcm_gpu.log | head -30
echo "tests at $SECONDS s"
for t in new old new; do timeout 200 build/$t/bench/bench_rcm --no-shared --reps 3 > $OUT/bench_rcm_$t.log 2>&1; echo "bench $t rc $?"; grep -E "tasks megakernel|tasks timesliced" $OUT/bench_rcm_$t.log; done
echo "bench at $SECONDS s"
S='*RcmGpu.MatchesSerialOnSmallGraphs/tasks*:*RcmGpu.MatchesRcmFromGivenRoots/tasks*:*LevelPathGivesUp*:*OtherLevelPaths/tasks_megakernel'
for tool in memcheck synccheck; do timeout 200 compute-sanitizer --tool $tool --error-exitcode 3 build/new/tests/tasks/rcm/test_rcm_gpu --gtest_filter="$S" > $OUT/$tool.txt 2>&1; echo "$tool rc $? $(grep -E 'ERROR SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/$tool.txt | tr '\n' ' ')"; done
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 3 build/new/tests/tasks/rcm/test_rcm_gpu --gtest_filter='*RcmGpu.MatchesSerialOnSmallGraphs/tasks*' > $OUT/racecheck.txt 2>&1; echo "racecheck rc $? $(grep -E 'RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/racecheck.txt | tr '\n' ' ')"
sed -i "s#$PWD#.#g" $OUT/*
echo "all done at $SECONDS s"
