#!/usr/bin/env bash
# Session 21 U6: batched child loops in rank_level, degrees not downloaded, orders written reversed in place: tests, sanitizers, bench (generated), probes (newS).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=8 .run/setup3.sh "test_rcm_gpu test_rcm_host bench_rcm" new newS
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
for b in test_rcm_host test_rcm_gpu; do timeout 300 build/new/tests/tasks/rcm/$b > $OUT/$b.log 2>&1; echo "$b rc $? $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/$b.log | tr '\n' ' ')"; done
grep -E "Failure" -A6 $OUT/test_rcm_gpu.log | head -30
echo "tests at $SECONDS s"
timeout 200 build/new/bench/bench_rcm --no-shared --reps 3 --json $OUT/bench_rcm_generated.json > $OUT/bench_rcm_generated.log 2>&1; echo "bench rc $?"; grep -E "poisson|random_spd" $OUT/bench_rcm_generated.log
timeout 100 build/newS/bench/bench_rcm --no-shared --reps 1 > /dev/null 2> $OUT/probe_S.log; echo "probe rc $?"; head -40 $OUT/probe_S.log
echo "bench at $SECONDS s"
S='*RcmGpu.MatchesSerialOnSmallGraphs/tasks*:*RcmGpu.MatchesRcmFromGivenRoots/tasks*:*LevelPathGivesUp*:*OtherLevelPaths/tasks_megakernel:*SmallGraphs/cub*'
for tool in memcheck synccheck; do timeout 200 compute-sanitizer --tool $tool --error-exitcode 3 build/new/tests/tasks/rcm/test_rcm_gpu --gtest_filter="$S" > $OUT/$tool.txt 2>&1; echo "$tool rc $? $(grep -E 'ERROR SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/$tool.txt | tr '\n' ' ')"; done
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 3 build/new/tests/tasks/rcm/test_rcm_gpu --gtest_filter='*RcmGpu.MatchesSerialOnSmallGraphs/tasks*' > $OUT/racecheck.txt 2>&1; echo "racecheck rc $? $(grep -E 'RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/racecheck.txt | tr '\n' ' ')"
sed -i "s#$PWD#.#g" $OUT/*
echo "all done at $SECONDS s"
