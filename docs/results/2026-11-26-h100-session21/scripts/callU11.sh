#!/usr/bin/env bash
# Session 21 U11: the review mend (fd5381c: shared tail of rank_level, helpers) vs 77fb1fe: tests, sanitizers, bench of both in one call.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=8 .run/setup3.sh "test_rcm_gpu test_rcm_host bench_rcm" new old
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
for b in test_rcm_host test_rcm_gpu; do timeout 200 build/new/tests/tasks/rcm/$b > $OUT/$b.log 2>&1; echo "$b rc $? $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/$b.log | tr '\n' ' ')"; done
for t in new old; do timeout 120 build/$t/bench/bench_rcm --no-shared --reps 3 > $OUT/bench_rcm_$t.log 2>&1; echo "bench $t rc $?"; grep -E "tasks" $OUT/bench_rcm_$t.log; done
echo "bench at $SECONDS s"
S='*RcmGpu.MatchesSerialOnSmallGraphs/*:*RcmGpu.MatchesRcmFromGivenRoots/tasks*:*LevelPathGivesUp*:*OtherLevelPaths/tasks_megakernel'
for tool in memcheck synccheck; do timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 build/new/tests/tasks/rcm/test_rcm_gpu --gtest_filter="$S" > $OUT/$tool.txt 2>&1; echo "$tool rc $? $(grep -E 'ERROR SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/$tool.txt | tr '\n' ' ')"; done
timeout 120 compute-sanitizer --tool racecheck --error-exitcode 3 build/new/tests/tasks/rcm/test_rcm_gpu --gtest_filter='*RcmGpu.MatchesSerialOnSmallGraphs/tasks*' > $OUT/racecheck.txt 2>&1; echo "racecheck rc $? $(grep -E 'RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/racecheck.txt | tr '\n' ' ')"
sed -i "s#$PWD#.#g" $OUT/*
echo "all done at $SECONDS s"
