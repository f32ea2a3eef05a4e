#!/usr/bin/env bash
# Final tree (HEAD, device code of e6acb64) vs e744a01 on a fresh machine: bench_runtime; Jacobi autonomous small.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=8 .run/setup3.sh "bench_runtime bench_jacobi" old & JOBS=8 .run/setup3.sh "bench_runtime bench_jacobi" new & wait
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for t in old new old new; do echo "== runtime $t"; build/$t/bench/bench_runtime --reps 5 --scheduler megakernel 2>&1 | tee -a $OUT/r13_runtime_$t.log | grep megakernel | awk -F'  +' '{print $3}' | tr '\n' ';'; echo; done
S="--iterations 100 --reps 3 --nnz 1e4,1e5,1e6 --nnz-budget 512,1024,4096 --row-budget 4096 --variants autonomous"
for t in old new; do echo "== jacobi small $t"; build/$t/bench/bench_jacobi $S 2>&1 | tee -a $OUT/r13_jacobi_$t.log | grep -E "autonomous|graph " | awk '{print $2,$3,$6,$8}' | tr '\n' ';'; echo; done
sed -i "s#$PWD#.#g" $OUT/*.log
echo "all done at $SECONDS s"
