#!/usr/bin/env bash
# Session 20 T10: the race test with memory-streaming tasks, without the fix (newT) and with it (new), twice each.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=8 .run/setup3.sh "test_runtime_gpu" new newT
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
F='*RunsEndWhileOrdinaryAndWaitingClaimsRace*'
for t in newT new newT new; do
  timeout 45 build/$t/tests/runtime/test_runtime_gpu --gtest_filter="$F" > $OUT/race_$t.log 2>&1; echo "$t: rc $? (124: timed out) $(grep -E '^\[  PASSED|^\[  FAILED|^\[ RUN|^\[       OK' $OUT/race_$t.log | tail -3 | tr '\n' ' ') at $SECONDS s"
done
sed -i "s#$PWD#.#g" $OUT/*
echo "all done at $SECONDS s"
