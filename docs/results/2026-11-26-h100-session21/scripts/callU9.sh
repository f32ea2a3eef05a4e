#!/usr/bin/env bash
# Session 21 U9: racecheck on the final RCM code (77fb1fe), small graphs under both schedulers (U8's racecheck also ran the 10000-level ladder and timed out).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=16 .run/setup3.sh "test_rcm_gpu" new
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
timeout 250 compute-sanitizer --tool racecheck --error-exitcode 3 build/new/tests/tasks/rcm/test_rcm_gpu --gtest_filter='*RcmGpu.MatchesSerialOnSmallGraphs/tasks*' > $OUT/racecheck.txt 2>&1; echo "racecheck rc $? $(grep -E 'RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/racecheck.txt | tr '\n' ' ')"
sed -i "s#$PWD#.#g" $OUT/*
echo "all done at $SECONDS s"
