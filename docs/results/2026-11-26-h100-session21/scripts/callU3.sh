#!/usr/bin/env bash
# Session 21 U3: clock64 probes of Rank (newQ); sanitizers on the tasks tests; bench with the shared matrices (new).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=8 .run/setup3.sh "test_rcm_gpu bench_rcm" new newQ
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
timeout 100 build/newQ/bench/bench_rcm --no-shared --reps 1 > $OUT/bench_rcm_newQ.log 2> $OUT/probeQ.log; echo "probe rc $?"; grep probeQ $OUT/probeQ.log | sort | uniq -c | sort -rn | head -12
echo "probe at $SECONDS s"
S='*RcmGpu.MatchesSerialOnSmallGraphs/tasks*:*RcmGpu.MatchesRcmFromGivenRoots/tasks*:*LevelPathGivesUp*'
for tool in memcheck synccheck; do timeout 240 compute-sanitizer --tool $tool --error-exitcode 3 build/new/tests/tasks/rcm/test_rcm_gpu --gtest_filter="$S" > $OUT/$tool.txt 2>&1; echo "$tool rc $? $(grep -E 'ERROR SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/$tool.txt | tr '\n' ' ')"; done
timeout 200 compute-sanitizer --tool racecheck --error-exitcode 3 build/new/tests/tasks/rcm/test_rcm_gpu --gtest_filter='*RcmGpu.MatchesSerialOnSmallGraphs/tasks*' > $OUT/racecheck.txt 2>&1; echo "racecheck rc $? $(grep -E 'RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/racecheck.txt | tr '\n' ' ')"
echo "sanitizers at $SECONDS s"
timeout 250 build/new/bench/bench_rcm --reps 3 --json $OUT/bench_rcm.json > $OUT/bench_rcm.log 2>&1; echo "bench rc $?"; tail -16 $OUT/bench_rcm.log
sed -i "s#$PWD#.#g" $OUT/*
echo "all done at $SECONDS s"
