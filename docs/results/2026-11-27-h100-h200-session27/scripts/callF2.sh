#!/usr/bin/env bash
# Session 27 F2 (warm after F1): controller GPU tests, sanitizers on the waiting-claim programs, Jacobi old vs new.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
ls build/new/bench/bench_jacobi build/old/bench/bench_jacobi build/ctl/tests/runtime/test_runtime_gpu || exit 1
run() { local name=$1; shift; timeout 200 "$@" > /tmp/$name.log 2>&1; echo "$name rc $? $(grep -E '^\[  PASSED|^\[  FAILED|tests? skipped' /tmp/$name.log | head -3 | tr '\n' ' ') at $SECONDS s"; grep -E "^\[  FAILED" /tmp/$name.log | head -5; }
run runtime_ctl build/ctl/tests/runtime/test_runtime_gpu
run jacobi_ctl build/ctl/tests/tasks/jacobi/test_jacobi_gpu
run pcg_ctl build/ctl/tests/tasks/pcg/test_pcg_gpu --gtest_filter='*TaskLoop*'
B=build/new/tests
S="--iterations 100 --reps 3 --nnz 1e4,1e5,1e6 --nnz-budget auto,512 --variants autonomous"
for p in 1 2; do for t in old new; do
  timeout 100 build/$t/bench/bench_jacobi $S > /tmp/j.log 2>&1; echo "== $t pass $p" >> $OUT/jacobi.log; cat /tmp/j.log >> $OUT/jacobi.log
  echo "$t p$p $(grep -E ' (graph|autonomous) ' /tmp/j.log | awk '{printf "%s %s %s %s | ", $1, $3, $6, $8}') at $SECONDS s"
done; done
F='*Claims*:*FillsItsQueue*:*Reserv*:*WavesReleased*'
for tool in memcheck synccheck racecheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 $B/runtime/test_runtime_gpu --gtest_filter="$F" > $OUT/san_q_$tool.txt 2>&1; echo "$tool queue rc $? $(grep -E 'SUMMARY|PASSED|FAILED' $OUT/san_q_$tool.txt | tail -2 | tr '\n' ' ') at $SECONDS s"
  APIARY_TEST_QUICK=1 timeout 100 compute-sanitizer --tool $tool --error-exitcode 3 $B/tasks/jacobi/test_jacobi_gpu --gtest_filter='*utonomous*' > $OUT/san_j_$tool.txt 2>&1; echo "$tool jacobi rc $? $(grep -E 'SUMMARY|PASSED|FAILED' $OUT/san_j_$tool.txt | tail -2 | tr '\n' ' ') at $SECONDS s"
done
sed -i "s#$PWD#.#g" $OUT/*
for f in $OUT/san_*; do tail -c 3000 $f > /tmp/x; mv /tmp/x $f; done
echo "all done at $SECONDS s"
