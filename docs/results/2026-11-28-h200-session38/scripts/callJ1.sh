#!/usr/bin/env bash
# Session 38 J1: the streamed row update (Jacobi) and Narrow's abort flag: tests, then old against new at 10^7 and 10^4-10^5.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
( JOBS=9 .run/setup3.sh "bench_jacobi test_jacobi_gpu test_jacobi_host test_rcm_gpu" new ) &
( JOBS=7 .run/setup3.sh "bench_jacobi" old ) &
wait
echo "built at $SECONDS s"
for t in test_jacobi_gpu test_jacobi_host; do
  timeout 100 build/new/tests/tasks/jacobi/$t > $OUT/j1_$t.log 2>&1; echo "$t rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $OUT/j1_$t.log | head -8 | tr '\n' ' ') at $SECONDS s"
done
timeout 100 build/new/tests/tasks/rcm/test_rcm_gpu > $OUT/j1_test_rcm_gpu.log 2>&1; echo "test_rcm_gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $OUT/j1_test_rcm_gpu.log | tr '\n' ' ') at $SECONDS s"
for t in new old new old; do
  [ $SECONDS -gt 470 ] && { echo "stopped before $t (time)"; break; }
  timeout 110 build/$t/bench/bench_jacobi --iterations 50 --reps 3 --nnz 1e7 --spec poisson3d:150 --variants autonomous,stages-deps \
    --nnz-budget auto,16384,65536 --row-budget 65536 >> $OUT/j1_10e7_$t.log 2>&1
  echo "== jacobi 10^7 $t at $SECONDS s"; grep -E "autonomous|graph|bound" $OUT/j1_10e7_$t.log | tail -14 | cut -c1-170
done
for t in new old; do
  [ $SECONDS -gt 540 ] && { echo "stopped before small $t (time)"; break; }
  timeout 40 build/$t/bench/bench_jacobi --iterations 100 --reps 3 --nnz 1e4,1e5 --nnz-budget auto,512 \
    --variants autonomous > $OUT/j1_small_$t.log 2>&1; echo "== jacobi small $t at $SECONDS s"; grep -E "autonomous|graph" $OUT/j1_small_$t.log | cut -c1-170
done
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log 2>/dev/null
(cd $OUT && tar -cf j1_logs.tar j1_* && find . -maxdepth 1 -name 'j1_*' ! -name j1_logs.tar -delete)
echo "all done at $SECONDS s"
