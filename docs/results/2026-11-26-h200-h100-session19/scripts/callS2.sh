#!/usr/bin/env bash
# Session 19 S2: waiting claims + Jacobi chunk in the item, no stop-flag load (new) vs d5ec81c (old).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=8 .run/setup3.sh "bench_jacobi test_jacobi_gpu test_runtime_gpu" old new
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
S="--iterations 100 --reps 3 --nnz 1e4,1e5,1e6 --nnz-budget 512,1024,4096 --row-budget 4096"
for t in old new old new; do echo "== jacobi small $t"; build/$t/bench/bench_jacobi $S 2>&1 | tee -a $OUT/jacobi_$t.log | grep -E "autonomous|graph " | awk '{print $2,$3,$6,$8}' | tr '\n' ';'; echo; done
echo "jacobi small done at $SECONDS s"
L="--iterations 50 --reps 3 --nnz 1e7 --nnz-budget 4096,65536 --row-budget 1024,16384 --spec poisson3d:150"
for t in old new; do echo "== jacobi large $t"; build/$t/bench/bench_jacobi $L 2>&1 | tee -a $OUT/jacobi_large_$t.log | grep -E "autonomous|graph " | awk '{print $1,$3"/"$4,$6,$8}' | tr '\n' ';'; echo; done
echo "jacobi large done at $SECONDS s"
for f in build/new/tests/runtime/test_runtime_gpu build/new/tests/tasks/jacobi/test_jacobi_gpu; do timeout 300 $f > /tmp/t.log 2>&1; echo "$(basename $f) rc $? $(grep -E '^\[  PASSED|^\[  FAILED' /tmp/t.log | tr '\n' ' ')"; grep -E "^\[  FAILED" /tmp/t.log | head; done
sed -i "s#$PWD#.#g" $OUT/*.log
echo "all done at $SECONDS s"
