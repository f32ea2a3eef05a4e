#!/usr/bin/env bash
# Final tree (358ea0c) vs e744a01: bench_runtime, bench_jacobi small and large; autonomous at 1 and 2 blocks per SM.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=8 .run/setup3.sh "bench_runtime bench_jacobi" old new
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for t in old new old new; do echo "== runtime $t"; build/$t/bench/bench_runtime --reps 5 2>&1 | tee -a $OUT/runtime_$t.log | grep -E "megakernel|timesliced" | awk -F'  +' '{print $3}' | tr '\n' ';'; echo; done
echo "runtime done at $SECONDS s"
S="--iterations 100 --reps 3 --nnz 1e4,1e5,1e6 --nnz-budget 512,1024,4096 --row-budget 4096"
for t in old new old new; do echo "== jacobi small $t"; build/$t/bench/bench_jacobi $S 2>&1 | tee -a $OUT/jacobi_$t.log | grep -E "autonomous|graph " | awk '{print $2,$3,$6,$8}' | tr '\n' ';'; echo; done
echo "jacobi small done at $SECONDS s"
L="--iterations 50 --reps 3 --nnz 1e7 --nnz-budget 4096,16384,65536 --row-budget 1024,16384 --spec poisson3d:150"
for t in old new; do echo "== jacobi large $t"; build/$t/bench/bench_jacobi $L 2>&1 | tee -a $OUT/jacobi_$t.log | grep -E "autonomous|graph " | awk '{print $1,$3"/"$4,$6,$8}' | tr '\n' ';'; echo; done
echo "jacobi large done at $SECONDS s"
for b in 1 2; do echo "== new autonomous blocks-per-sm $b"; build/new/bench/bench_jacobi $S --variants autonomous --blocks-per-sm $b 2>&1 | tee -a $OUT/jacobi_bps.log | grep -E "autonomous|graph " | awk '{print $2,$3,$6,$8}' | tr '\n' ';'; echo; done
sed -i "s#$PWD#.#g" $OUT/*.log
echo "all done at $SECONDS s"
