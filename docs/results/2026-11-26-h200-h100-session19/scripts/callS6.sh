#!/usr/bin/env bash
# Session 19 S6: the committed tree (RowTask for autonomous only) vs d5ec81c: Jacobi GPU tests, bench_jacobi small (all variants).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=8 .run/setup3.sh "bench_jacobi test_jacobi_gpu" old new
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 120 build/new/tests/tasks/jacobi/test_jacobi_gpu > /tmp/t.log 2>&1; echo "jacobi gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED' /tmp/t.log | tr '\n' ' ')"
S="--iterations 100 --reps 3 --nnz 1e4,1e5,1e6 --nnz-budget 512,1024,4096 --row-budget 4096"
for t in old new old new; do echo "== jacobi small $t"; timeout 60 build/$t/bench/bench_jacobi $S 2>&1 | tee -a $OUT/jacobi_$t.log | grep -E "autonomous|graph " | awk '{print $2,$3,$6,$8}' | tr '\n' ';'; echo; done
sed -i "s#$PWD#.#g" $OUT/*.log
echo "all done at $SECONDS s"
