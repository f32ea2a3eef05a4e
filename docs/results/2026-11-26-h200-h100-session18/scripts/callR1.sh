#!/usr/bin/env bash
# Relaxed `ready` (new) and relaxed ready + idle back-off cap 512 ns (newc) against HEAD (old).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=6 .run/setup3.sh "bench_runtime bench_jacobi bench_sptrsv" old new & JOBS=4 .run/setup3.sh "bench_runtime bench_jacobi" newc & wait
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for t in old new newc old new newc; do echo "== runtime $t"; build/$t/bench/bench_runtime --reps 5 --scheduler megakernel 2>&1 | tee -a $OUT/bench_runtime_$t.log | grep megakernel | awk -F'  +' '{print $3}' | tr '\n' ';'; echo; done
echo "runtime done at $SECONDS s"
S="--iterations 100 --reps 3 --nnz 1e4,1e5,1e6 --nnz-budget 512,1024,4096 --row-budget 256,4096 --variants autonomous,stages-deps,stages-phases,checkpoints"
for t in old new newc old new newc; do echo "== jacobi small $t"; build/$t/bench/bench_jacobi $S 2>&1 | tee -a $OUT/bench_small_$t.log | grep -E "autonomous|graph " | awk '{print $2,$3"/"$4,$6,$8}' | tr '\n' ';'; echo; done
echo "jacobi done at $SECONDS s"
for t in old new; do echo "== sptrsv $t"; build/$t/bench/bench_sptrsv --set quick --matrices .matrices --reps 5 --csv $OUT/sptrsv_$t.csv > $OUT/bench_sptrsv_$t.log 2>&1; echo "rc $?"; grep -iE "geometric|faster" $OUT/bench_sptrsv_$t.log | head -6; done
echo "all done at $SECONDS s"
