#!/usr/bin/env bash
# Session 26 E3: the final tree (several pollers per waiting claim) against HEAD before it (old):
# GPU tests, sanitizers, Jacobi benchmarks.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
( JOBS=12 .run/setup3.sh "test_runtime_gpu test_jacobi_gpu test_generic_gpu test_watchdog test_apps apiary bench_jacobi" new ) &
( JOBS=4 .run/setup3.sh "apiary bench_jacobi" old ) &
wait
echo "built at $SECONDS s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for t in old new; do bash .run/regs.sh $t | grep VariantE4; done
run() { local name=$1; shift; timeout 200 "$@" > /tmp/$name.log 2>&1; echo "$name rc $? $(grep -E '^\[  PASSED|^\[  FAILED|tests? skipped' /tmp/$name.log | head -3 | tr '\n' ' ') at $SECONDS s"; grep -E "^\[  FAILED" /tmp/$name.log | head -5; tail -3 /tmp/$name.log >> $OUT/tests_tail.log; }
B=build/new/tests
run runtime $B/runtime/test_runtime_gpu
run watchdog $B/runtime/test_watchdog
run generic $B/tasks/generic/test_generic_gpu
run jacobi $B/tasks/jacobi/test_jacobi_gpu
run apps $B/apps/test_apps
S="--iterations 100 --reps 3 --nnz 1e4,1e5,1e6 --nnz-budget auto,512,1024,2048 --variants autonomous,stages-deps,checkpoints"
for p in 1 2; do for t in old new; do
  timeout 150 build/$t/bench/bench_jacobi $S > /tmp/j.log 2>&1; echo "== $t pass $p" >> $OUT/jacobi.log; cat /tmp/j.log >> $OUT/jacobi.log
  echo "$t p$p $(grep -E ' (graph|autonomous) ' /tmp/j.log | awk '{printf "%s %s %s %s | ", $1, $3, $6, $8}') at $SECONDS s"
done; done
L="--iterations 50 --reps 3 --nnz 1e7 --spec poisson3d:150 --nnz-budget auto --variants autonomous"
for t in old new; do timeout 150 build/$t/bench/bench_jacobi $L > /tmp/l.log 2>&1; echo "== $t" >> $OUT/jacobi_large.log; cat /tmp/l.log >> $OUT/jacobi_large.log
  echo "$t large $(grep -E ' (graph|autonomous) ' /tmp/l.log | awk '{printf "%s %s %s %s | ", $1, $3, $6, $8}') at $SECONDS s"; done
R=$B/runtime/test_runtime_gpu; J=$B/tasks/jacobi/test_jacobi_gpu
F='*Claims*:*FillsItsQueue*:*Reserv*:*WavesReleased*'
for tool in memcheck synccheck racecheck; do
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 3 $R --gtest_filter="$F" > /tmp/san_$tool.txt 2>&1; echo "$tool queue rc $? $(grep -E 'SUMMARY|PASSED|FAILED' /tmp/san_$tool.txt | tail -2 | tr '\n' ' ') at $SECONDS s"; tail -4 /tmp/san_$tool.txt >> $OUT/sanitizers_tail.txt
  APIARY_TEST_QUICK=1 timeout 120 compute-sanitizer --tool $tool --error-exitcode 3 $J --gtest_filter='*utonomous*' > /tmp/sanj_$tool.txt 2>&1; echo "$tool jacobi rc $? $(grep -E 'SUMMARY|PASSED|FAILED' /tmp/sanj_$tool.txt | tail -2 | tr '\n' ' ') at $SECONDS s"; tail -4 /tmp/sanj_$tool.txt >> $OUT/sanitizers_tail.txt
done
sed -i "s#$PWD#.#g" $OUT/*.log $OUT/*.txt
echo "all done at $SECONDS s"
