#!/usr/bin/env bash
# Session 20 T9: the end-of-run claim race: the new test without the fix (newT, expected to hang) and with it (new); Jacobi bench x10, tests.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=8 .run/setup3.sh "test_runtime_gpu bench_jacobi test_jacobi_gpu" new newT
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
F='*RunsEndWhileOrdinaryAndWaitingClaimsRace*'
timeout 60 build/newT/tests/runtime/test_runtime_gpu --gtest_filter="$F" > $OUT/race_without_fix.log 2>&1; echo "without the fix: rc $? (124: timed out) $(grep -E '^\[  PASSED|^\[  FAILED|^\[ RUN' $OUT/race_without_fix.log | tail -2 | tr '\n' ' ')"
timeout 120 build/new/tests/runtime/test_runtime_gpu --gtest_filter="$F" > $OUT/race_with_fix.log 2>&1; echo "with the fix: rc $? $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/race_with_fix.log | tr '\n' ' ') $(grep -E '^\[       OK' $OUT/race_with_fix.log | tr '\n' ' ')"
echo "race at $SECONDS s"
for b in runtime/test_runtime_gpu tasks/jacobi/test_jacobi_gpu; do timeout 200 build/new/tests/$b > $OUT/$(basename $b).log 2>&1; echo "$b rc $? $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/$(basename $b).log | tr '\n' ' ')"; done
echo "tests at $SECONDS s"
L="--iterations 50 --reps 3 --nnz 1e7 --nnz-budget 4096,65536 --row-budget 1024,16384 --spec poisson3d:150 --variants autonomous,stages-deps,checkpoints"
for i in $(seq 1 12); do timeout 40 build/new/bench/bench_jacobi $L > $OUT/bench_$i.log 2>&1; rc=$?; echo -n "bench $i rc $rc ($(grep -c . $OUT/bench_$i.log) lines); "; [ $rc = 0 ] && [ $i -gt 1 ] && rm $OUT/bench_$i.log; done; echo
echo "bench at $SECONDS s"
APIARY_TEST_QUICK=1 timeout 100 compute-sanitizer --tool memcheck --error-exitcode 3 build/new/tests/runtime/test_runtime_gpu --gtest_filter="$F:*Waves*:*Overflow*" > $OUT/memcheck_race.txt 2>&1; echo "memcheck rc $? $(grep -E 'ERROR SUMMARY|PASSED|FAILED' $OUT/memcheck_race.txt | tail -2 | tr '\n' ' ')"
sed -i "s#$PWD#.#g" $OUT/*
echo "all done at $SECONDS s"
