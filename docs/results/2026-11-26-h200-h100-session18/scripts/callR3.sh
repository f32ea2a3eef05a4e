#!/usr/bin/env bash
# Padded counters, final layout (+ relaxed ready) = new; + idle back-off cap 512 ns = newc; old = HEAD.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=7 .run/setup3.sh "bench_runtime bench_jacobi bench_rcm" old new & JOBS=2 .run/setup3.sh "bench_runtime bench_jacobi" newc & wait
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for t in old new newc old new newc; do echo "== runtime $t"; build/$t/bench/bench_runtime --reps 5 2>&1 | tee -a $OUT/runtime_$t.log | grep -E "megakernel|timesliced" | awk -F'  +' '{print $3}' | tr '\n' ';'; echo; done
echo "runtime done at $SECONDS s"
S="--iterations 100 --reps 3 --nnz 1e4,1e5,1e6 --nnz-budget 512,1024,4096 --row-budget 4096"
for t in old new newc old new newc; do echo "== jacobi small $t"; build/$t/bench/bench_jacobi $S 2>&1 | tee -a $OUT/jacobi_$t.log | grep -E "autonomous|graph |stages|checkpoints" | awk '{print $2,$3,$6,$8}' | tr '\n' ';'; echo; done
echo "jacobi small done at $SECONDS s"
L="--iterations 50 --reps 3 --nnz 1e7 --nnz-budget 4096,16384,65536 --row-budget 1024,16384 --spec poisson3d:150"
for t in old new newc; do echo "== jacobi large $t"; build/$t/bench/bench_jacobi $L 2>&1 | tee -a $OUT/jacobi_$t.log | grep -E "autonomous|graph |stages|checkpoints" | awk '{print $1,$3"/"$4,$6,$8}' | tr '\n' ';'; echo; done
echo "jacobi large done at $SECONDS s"
for t in old new; do echo "== rcm $t"; build/$t/bench/bench_rcm --no-shared --reps 3 2>&1 | tee -a $OUT/rcm.log | grep -E "tasks|cub" | head -12; done
echo "all done at $SECONDS s"
