#!/usr/bin/env bash
# Relaxed ready + padded counters (new), + idle back-off cap 512 ns (newc), against HEAD (old).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=7 .run/setup3.sh "bench_runtime bench_jacobi bench_sptrsv" old new & JOBS=2 .run/setup3.sh "bench_runtime bench_jacobi" newc & wait
( source scripts/env.sh; ninja -C build/new -j 16 test_runtime_gpu test_jacobi_gpu > /tmp/bt.log 2>&1; echo "tests build rc $?" )
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
APIARY_TEST_QUICK=1 build/new/tests/runtime/test_runtime_gpu > /tmp/tr.log 2>&1; echo "runtime quick rc $? $(tail -1 /tmp/tr.log)"
APIARY_TEST_QUICK=1 build/new/tests/tasks/jacobi/test_jacobi_gpu > /tmp/tj.log 2>&1; echo "jacobi quick rc $? $(tail -1 /tmp/tj.log)"
for t in old new newc old new newc; do echo "== runtime $t"; build/$t/bench/bench_runtime --reps 5 --scheduler megakernel 2>&1 | tee -a $OUT/bench_runtime_$t.log | grep megakernel | awk -F'  +' '{print $3}' | tr '\n' ';'; echo; done
echo "runtime done at $SECONDS s"
S="--iterations 100 --reps 3 --nnz 1e4,1e5,1e6 --nnz-budget 512,1024,4096 --row-budget 4096 --variants autonomous,stages-deps,stages-phases,checkpoints"
for t in old new newc old new newc; do echo "== jacobi small $t"; build/$t/bench/bench_jacobi $S 2>&1 | tee -a $OUT/bench_small_$t.log | grep -E "autonomous|graph " | awk '{print $2,$3,$6,$8}' | tr '\n' ';'; echo; done
echo "jacobi done at $SECONDS s"
L="--iterations 50 --reps 3 --nnz 1e7 --nnz-budget 4096,16384 --row-budget 1024 --spec poisson3d:150 --variants autonomous,stages-phases"
for t in old new newc; do echo "== jacobi large $t"; build/$t/bench/bench_jacobi $L 2>&1 | tee -a $OUT/bench_small_$t.log | grep -E "autonomous|graph |stages" | awk '{print $1,$3,$6,$8}' | tr '\n' ';'; echo; done
for t in old new; do echo "== sptrsv $t"; build/$t/bench/bench_sptrsv --set quick --matrices .matrices --reps 5 --csv /tmp/sptrsv_$t.csv > $OUT/bench_sptrsv_$t.log 2>&1; echo "rc $?"; grep -iE "geometric" $OUT/bench_sptrsv_$t.log | head -3; done
echo "all done at $SECONDS s"
