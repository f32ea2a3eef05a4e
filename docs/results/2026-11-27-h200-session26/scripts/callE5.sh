#!/usr/bin/env bash
# Session 26 E5: the barrier fix (claim.waiting cleared by thread 0 after the barrier; pollers race on claim.taken): racecheck, tests, bench.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
R=build/new/tests/runtime/test_runtime_gpu; J=build/new/tests/tasks/jacobi/test_jacobi_gpu

( JOBS=16 .run/setup3.sh "test_runtime_gpu test_jacobi_gpu bench_jacobi" new )
echo "built at $SECONDS s"
bash .run/regs.sh new | grep VariantE4
F='*Claims*:*FillsItsQueue*:*Reserv*:*WavesReleased*'
timeout 120 compute-sanitizer --tool racecheck --error-exitcode 3 --print-limit 6 $R --gtest_filter="$F" > $OUT/racecheck_queue.txt 2>&1; echo "racecheck queue rc $? $(grep -E 'SUMMARY|PASSED|FAILED' $OUT/racecheck_queue.txt | tail -2 | tr '\n' ' ') at $SECONDS s"
APIARY_TEST_QUICK=1 timeout 120 compute-sanitizer --tool racecheck --error-exitcode 3 --print-limit 6 $J --gtest_filter='*utonomous*' > /tmp/rj.txt 2>&1; echo "racecheck jacobi rc $? $(grep -E 'SUMMARY|PASSED|FAILED' /tmp/rj.txt | tail -2 | tr '\n' ' ') at $SECONDS s"; tail -30 /tmp/rj.txt > $OUT/racecheck_jacobi_tail.txt
timeout 100 $R > /tmp/rt.log 2>&1; echo "runtime rc $? $(grep -E '^\[  PASSED|^\[  FAILED' /tmp/rt.log | tr '\n' ' ') at $SECONDS s"
timeout 100 $J > /tmp/jt.log 2>&1; echo "jacobi rc $? $(grep -E '^\[  PASSED|^\[  FAILED' /tmp/jt.log | tr '\n' ' ') at $SECONDS s"
S="--iterations 100 --reps 3 --nnz 1e4,1e5 --nnz-budget auto,512 --variants autonomous"
timeout 100 build/new/bench/bench_jacobi $S > $OUT/jacobi_fix.log 2>&1; echo "bench $(grep -E ' (graph|autonomous) ' $OUT/jacobi_fix.log | awk '{printf "%s %s %s %s | ", $1, $3, $6, $8}') at $SECONDS s"
sed -i "s#$PWD#.#g" $OUT/*
echo "all done at $SECONDS s"
