#!/usr/bin/env bash
# Session 26 E2: D4 (several pollers + straight waiting claims) against new and W4; tests of D4; 10^7 check.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
( JOBS=12 .run/setup3.sh "test_runtime_gpu test_jacobi_gpu test_generic_gpu apiary bench_jacobi" newD4 ) &
( JOBS=4 .run/setup3.sh "apiary bench_jacobi" new newW4 ) &
wait
echo "built at $SECONDS s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for t in new newW4 newD4; do bash .run/regs.sh $t | grep VariantE4; done
S="--iterations 100 --reps 3 --nnz 1e4,1e5 --nnz-budget auto,512 --variants autonomous"
for p in 1 2; do for t in new newW4 newD4; do
  timeout 120 build/$t/bench/bench_jacobi $S > /tmp/j.log 2>&1; echo "== $t pass $p" >> $OUT/jacobi.log; cat /tmp/j.log >> $OUT/jacobi.log
  echo "$t p$p $(grep -E ' (graph|autonomous) ' /tmp/j.log | awk '{printf "%s %s %s %s | ", $1, $3, $6, $8}') at $SECONDS s"
done; done
mkdir -p /tmp/tr2
for t in newW4 newD4; do
  timeout 60 build/$t/apps/apiary jacobi dd:5263:11:27 --variant autonomous --scheduler megakernel --tol 0 --max-iter 100 --nnz-budget 1024 --reps 3 --trace /tmp/tr2/$t > /dev/null 2>&1; echo "trace $t rc $?"
  f=$(ls /tmp/tr2/$t* | head -1); python3 .run/trace_starts.py $f 99 2>&1 | tail -3
done
for t in newD4; do
  timeout 100 build/$t/tests/runtime/test_runtime_gpu > /tmp/rt.log 2>&1; echo "rt $t rc $? $(grep -E '^\[  PASSED|^\[  FAILED' /tmp/rt.log | tr '\n' ' ')"; grep -E "^\[  FAILED" /tmp/rt.log | head
  timeout 200 build/$t/tests/tasks/jacobi/test_jacobi_gpu > /tmp/jt.log 2>&1; echo "jacobi $t rc $? $(grep -E '^\[  PASSED|^\[  FAILED' /tmp/jt.log | tr '\n' ' ') at $SECONDS s"; grep -E "^\[  FAILED" /tmp/jt.log | head
  timeout 100 build/$t/tests/tasks/generic/test_generic_gpu > /tmp/gt.log 2>&1; echo "generic $t rc $? $(grep -E '^\[  PASSED|^\[  FAILED' /tmp/gt.log | tr '\n' ' ') at $SECONDS s"; grep -E "^\[  FAILED" /tmp/gt.log | head
done
L="--iterations 50 --reps 3 --nnz 1e7 --spec poisson3d:150 --nnz-budget auto --variants autonomous"
for t in new newD4; do timeout 150 build/$t/bench/bench_jacobi $L > /tmp/l.log 2>&1; echo "== $t" >> $OUT/jacobi_large.log; cat /tmp/l.log >> $OUT/jacobi_large.log
  echo "$t large $(grep -E ' (graph|autonomous) ' /tmp/l.log | awk '{printf "%s %s %s %s | ", $1, $3, $6, $8}') at $SECONDS s"; done
R=build/new/tests/runtime/test_runtime_gpu; J=build/new/tests/tasks/jacobi/test_jacobi_gpu
F='*FillsItsQueue*:*Reserv*:*WavesReleased*'
for tool in racecheck synccheck; do
  [ -x $R ] || break
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 3 $R --gtest_filter="$F" > /tmp/san_$tool.txt 2>&1; echo "$tool queue rc $? $(grep -E 'SUMMARY|PASSED|FAILED' /tmp/san_$tool.txt | tail -2 | tr '\n' ' ') at $SECONDS s"; tail -4 /tmp/san_$tool.txt >> $OUT/sanitizers_tail.txt
  APIARY_TEST_QUICK=1 timeout 120 compute-sanitizer --tool $tool --error-exitcode 3 $J --gtest_filter='*utonomous*' > /tmp/sanj_$tool.txt 2>&1; echo "$tool jacobi rc $? $(grep -E 'SUMMARY|PASSED|FAILED' /tmp/sanj_$tool.txt | tail -2 | tr '\n' ' ') at $SECONDS s"; tail -4 /tmp/sanj_$tool.txt >> $OUT/sanitizers_tail.txt
done
sed -i "s#$PWD#.#g" $OUT/*.log $OUT/*.txt
echo "all done at $SECONDS s"
