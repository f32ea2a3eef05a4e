#!/usr/bin/env bash
# Jacobi auto blocks per SM (new, --blocks-per-sm 0) against all that fit (--blocks-per-sm 16), all variants.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=16 .run/setup3.sh "bench_jacobi test_jacobi_gpu" new
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
APIARY_TEST_QUICK=1 build/new/tests/tasks/jacobi/test_jacobi_gpu > /tmp/tj.log 2>&1; echo "jacobi quick rc $? $(tail -1 /tmp/tj.log)"
S="--iterations 100 --reps 3 --nnz 1e4,1e5,1e6 --nnz-budget 512,1024,4096 --row-budget 4096"
for b in 16 0 16 0; do echo "== small bps $b"; build/new/bench/bench_jacobi $S --blocks-per-sm $b 2>&1 | tee -a $OUT/small_bps$b.log | grep -E "megakernel" | awk '{print $2,$3,$6,$8}' | tr '\n' ';'; echo; done
L="--iterations 50 --reps 3 --nnz 1e7 --nnz-budget 4096,16384,65536 --row-budget 1024,16384 --spec poisson3d:150"
for b in 16 0; do echo "== large bps $b"; build/new/bench/bench_jacobi $L --blocks-per-sm $b 2>&1 | tee -a $OUT/large_bps$b.log | grep -E "megakernel" | awk '{print $1,$3"/"$4,$5,$6,$8}' | tr '\n' ';'; echo; done
T="--iterations 100 --reps 3 --nnz 1e4,1e5 --nnz-budget 512,1024 --row-budget 4096 --schedulers all"
echo "== small all schedulers bps 0"; build/new/bench/bench_jacobi $T 2>&1 | tee $OUT/small_schedulers.log | grep -E "timesliced" | awk '{print $2,$3,$6,$8}' | tr '\n' ';'; echo
sed -i "s#$PWD#.#g" $OUT/*.log
echo "all done at $SECONDS s"
