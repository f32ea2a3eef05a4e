#!/usr/bin/env bash
# Jacobi: L2 prefetch of the next chunk (new) against deep claims alone (old = HEAD).
set -uo pipefail
cd "$(dirname "$0")/.."
.run/setup.sh "bench_jacobi" "bench_jacobi test_jacobi_gpu test_sptrsv_gpu"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
APIARY_TEST_QUICK=1 build/new/tests/tasks/jacobi/test_jacobi_gpu > /tmp/tj.log 2>&1; echo "jacobi quick rc $? $(tail -1 /tmp/tj.log)"
APIARY_TEST_QUICK=1 build/new/tests/tasks/sptrsv/test_sptrsv_gpu > /tmp/ts.log 2>&1; echo "sptrsv quick rc $? $(tail -1 /tmp/ts.log)"
L="--iterations 50 --reps 3 --nnz 1e6,1e7 --nnz-budget 1024,4096 --spec poisson3d:150 --variants autonomous,stages-phases"
for t in old new old new; do echo "== jacobi large $t"; build/$t/bench/bench_jacobi $L 2>&1 | tee -a $OUT/p_large_$t.log | grep -E "autonomous|graph |stages" | awk '{print $1,$3,$5,$7,$NF}' | tr '\n' ';'; echo; done
S="--iterations 100 --reps 3 --nnz 1e4,1e5 --nnz-budget 256,512,1024 --variants autonomous,stages-phases"
for t in old new; do echo "== jacobi small $t"; build/$t/bench/bench_jacobi $S 2>&1 | tee -a $OUT/p_small_$t.log | grep -E "autonomous|graph |stages" | awk '{print $2,$3,$5,$7}' | tr '\n' ';'; echo; done
