#!/usr/bin/env bash
# Counter layouts: new = LA (flags block at 8, ready first), new3 = R3 (phase word first, ready last), newb = R2 (flags at 0, 84 regs); old = HEAD.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=4 .run/setup3.sh "bench_runtime bench_jacobi" old new new3 newb
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for t in old new new3 newb old new new3 newb; do echo "== runtime $t"; build/$t/bench/bench_runtime --reps 5 --scheduler megakernel 2>&1 | tee -a $OUT/runtime_$t.log | grep megakernel | awk -F'  +' '{print $3}' | tr '\n' ';'; echo; done
echo "runtime done at $SECONDS s"
S="--iterations 100 --reps 3 --nnz 1e4,1e5,1e6 --nnz-budget 512,1024,4096 --row-budget 4096 --variants autonomous,stages-deps"
for t in old new new3 newb old new new3 newb; do echo "== jacobi small $t"; build/$t/bench/bench_jacobi $S 2>&1 | tee -a $OUT/jacobi_$t.log | grep -E "autonomous|stages" | awk '{print $2,$3,$6,$8}' | tr '\n' ';'; echo; done
echo "jacobi small done at $SECONDS s"
L="--iterations 50 --reps 3 --nnz 1e7 --nnz-budget 4096,16384 --row-budget 1024 --spec poisson3d:150 --variants autonomous,stages-deps"
for t in old new new3 newb; do echo "== jacobi large $t"; build/$t/bench/bench_jacobi $L 2>&1 | tee -a $OUT/jacobi_$t.log | grep -E "autonomous|stages" | awk '{print $1,$3,$6,$8}' | tr '\n' ';'; echo; done
echo "all done at $SECONDS s"
