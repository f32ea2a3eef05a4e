#!/usr/bin/env bash
# Session 26 E1: sanitizers on HEAD; waiting-claim polling experiments (S: no sleep, W8/W4: several pollers).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
( JOBS=6 .run/setup3.sh "test_runtime_gpu test_jacobi_gpu apiary bench_jacobi" new ) &
( JOBS=10 .run/setup3.sh "apiary bench_jacobi" newS newW8 newW4 ) &
wait
echo "built at $SECONDS s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for t in new newS newW8 newW4; do bash .run/regs.sh $t | grep VariantE4; done
S="--iterations 100 --reps 3 --nnz 1e4,1e5 --nnz-budget auto --variants autonomous"
for p in 1 2; do for t in new newS newW8 newW4; do
  timeout 120 build/$t/bench/bench_jacobi $S > /tmp/j.log 2>&1; echo "== $t pass $p" >> $OUT/jacobi.log; cat /tmp/j.log >> $OUT/jacobi.log
  echo "$t p$p $(grep -E ' (graph|autonomous) ' /tmp/j.log | awk '{printf "%s %s %s | ", $1, $6, $8}') at $SECONDS s"
done; done
mkdir -p /tmp/tr
for t in new newS newW8; do
  timeout 60 build/$t/apps/apiary jacobi dd:5263:11:27 --variant autonomous --scheduler megakernel --tol 0 --max-iter 100 --nnz-budget 1024 --reps 3 --trace /tmp/tr/$t > /dev/null 2>&1; echo "trace $t rc $?"
  f=$(ls /tmp/tr/$t* | head -1); python3 .run/trace_starts.py $f 99 2>&1 | tail -3
done
R=build/new/tests/runtime/test_runtime_gpu; J=build/new/tests/tasks/jacobi/test_jacobi_gpu
F='*FillsItsQueue*:*Reserv*:*WavesReleased*'
for tool in memcheck racecheck synccheck; do
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 3 $R --gtest_filter="$F" > /tmp/san_$tool.txt 2>&1; echo "$tool queue rc $? $(grep -E 'SUMMARY|PASSED|FAILED' /tmp/san_$tool.txt | tail -2 | tr '\n' ' ') at $SECONDS s"; tail -4 /tmp/san_$tool.txt >> $OUT/sanitizers_tail.txt
  APIARY_TEST_QUICK=1 timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 $J --gtest_filter='*utonomous*' > /tmp/sanj_$tool.txt 2>&1; echo "$tool jacobi rc $? $(grep -E 'SUMMARY|PASSED|FAILED' /tmp/sanj_$tool.txt | tail -2 | tr '\n' ' ') at $SECONDS s"; tail -4 /tmp/sanj_$tool.txt >> $OUT/sanitizers_tail.txt
done
sed -i "s#$PWD#.#g" $OUT/*.log $OUT/*.txt
echo "all done at $SECONDS s"
