#!/usr/bin/env bash
# Session 24 K2: reserved fan-outs (new) vs HEAD 13a4932 (old): runtime queue + Jacobi GPU tests, sanitizers, bench small (alternated x2), large once.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
( JOBS=10 .run/setup3.sh "bench_jacobi test_jacobi_gpu test_runtime_gpu" new ) &
( JOBS=6 .run/setup3.sh "bench_jacobi" old ) &
wait
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
R=build/new/tests/runtime/test_runtime_gpu; J=build/new/tests/tasks/jacobi/test_jacobi_gpu
timeout 200 $R --gtest_filter='QueueGpu.*' > $OUT/test_queue_gpu.log 2>&1; echo "queue gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/test_queue_gpu.log | tr '\n' ' ')"; grep -E "^\[  FAILED" $OUT/test_queue_gpu.log | head -5
timeout 200 $J > $OUT/test_jacobi_gpu.log 2>&1; echo "jacobi gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/test_jacobi_gpu.log | tr '\n' ' ')"; grep -E "^\[  FAILED" $OUT/test_jacobi_gpu.log | head -5
echo "tests at $SECONDS s"
S="--iterations 100 --reps 3 --nnz 1e4,1e5,1e6 --nnz-budget auto,512,1024 --variants autonomous"
for t in old new old new; do echo "== jacobi small $t at $SECONDS s"; timeout 90 build/$t/bench/bench_jacobi $S > /tmp/js.log 2>&1; cat /tmp/js.log >> $OUT/jacobi_small_$t.log; grep -E "autonomous|graph" /tmp/js.log | grep megakernel\\\|graph | awk '{print $1,$2,$3,$4,$6,$8}' | tr '\n' ';'; echo; done
L="--iterations 50 --reps 3 --nnz 1e7 --nnz-budget auto --spec poisson3d:150 --variants autonomous"
for t in old new; do echo "== jacobi large $t"; timeout 200 build/$t/bench/bench_jacobi $L > /tmp/jl.log 2>&1; cat /tmp/jl.log >> $OUT/jacobi_large_$t.log; grep -E "autonomous|graph" /tmp/jl.log | awk '{print $1,$2,$3,$4,$6,$8}' | tr '\n' ';'; echo; done
echo "bench done at $SECONDS s"
for tool in memcheck racecheck synccheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 $R --gtest_filter='*Reserv*' > $OUT/san_queue_$tool.txt 2>&1; echo "$tool queue rc $? $(grep -E 'SUMMARY|PASSED|FAILED' $OUT/san_queue_$tool.txt | tail -2 | tr '\n' ' ')"
  APIARY_TEST_QUICK=1 timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 $J --gtest_filter='*utonomous*' > $OUT/san_jacobi_$tool.txt 2>&1; echo "$tool jacobi rc $? $(grep -E 'SUMMARY|PASSED|FAILED' $OUT/san_jacobi_$tool.txt | tail -2 | tr '\n' ' ')"
done
sed -i "s#$PWD#.#g" $OUT/*.log $OUT/*.txt
echo "all done at $SECONDS s"
