#!/usr/bin/env bash
# Session 18 summary: e744a01 (old) vs e6acb64 (new), same card: runtime, Jacobi, SpTRSV, RCM, PCG.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=8 .run/setup3.sh "bench_runtime bench_jacobi bench_sptrsv bench_rcm bench_pcg" old & JOBS=8 .run/setup3.sh "bench_runtime bench_jacobi bench_sptrsv bench_rcm bench_pcg" new & wait
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for t in old new old new; do echo "== runtime $t"; build/$t/bench/bench_runtime --reps 5 --scheduler megakernel 2>&1 | tee -a $OUT/runtime_$t.log | grep megakernel | awk -F'  +' '{print $3}' | tr '\n' ';'; echo; done
S="--iterations 100 --reps 3 --nnz 1e4,1e5,1e6 --nnz-budget 512,1024,4096 --row-budget 4096"
L="--iterations 50 --reps 3 --nnz 1e7 --nnz-budget 16384,65536 --row-budget 1024,16384 --spec poisson3d:150"
for t in old new; do echo "== jacobi $t"; build/$t/bench/bench_jacobi $S > $OUT/jacobi_$t.log 2>&1; build/$t/bench/bench_jacobi $L >> $OUT/jacobi_$t.log 2>&1; grep -E "autonomous" $OUT/jacobi_$t.log | awk '{print $1,$3"/"$4,$8}' | tr '\n' ';'; echo; done
for t in old new; do echo "== sptrsv $t"; build/$t/bench/bench_sptrsv --set quick --matrices .matrices --reps 5 --csv /tmp/sptrsv_$t.csv > $OUT/sptrsv_$t.log 2>&1; grep -iE "geometric" $OUT/sptrsv_$t.log | head -2; done
for t in old new; do echo "== rcm $t"; build/$t/bench/bench_rcm --no-shared --reps 3 >> $OUT/other.log 2>&1; grep -E "tasks megakernel" $OUT/other.log | tail -3 | awk '{print $1,$7}'; done
for t in old new; do echo "== pcg $t"; build/$t/bench/bench_pcg --order color --precond ic0 --loop tasks --reps 3 poisson3d:100 >> $OUT/other.log 2>&1; grep -E "^color +ic0 +tasks" $OUT/other.log | tail -1; done
sed -i "s#$PWD#.#g" $OUT/*.log
echo "all done at $SECONDS s"
