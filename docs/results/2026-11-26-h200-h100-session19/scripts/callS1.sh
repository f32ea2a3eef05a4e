#!/usr/bin/env bash
# Session 19 S1: waiting claims (new) vs d5ec81c (old): bench_runtime, bench_jacobi small; quick GPU tests of new.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=8 .run/setup3.sh "bench_runtime bench_jacobi test_runtime_gpu test_jacobi_gpu" old new
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ls build/new/tests/runtime/ | head -20
S="--iterations 100 --reps 3 --nnz 1e4,1e5,1e6 --nnz-budget 512,1024,4096 --row-budget 4096"
for t in old new old new; do echo "== jacobi small $t"; build/$t/bench/bench_jacobi $S 2>&1 | tee -a $OUT/jacobi_$t.log | grep -E "autonomous|graph " | awk '{print $2,$3,$6,$8}' | tr '\n' ';'; echo; done
echo "jacobi small done at $SECONDS s"
for t in old new; do echo "== runtime $t"; build/$t/bench/bench_runtime --reps 5 2>&1 | tee -a $OUT/runtime_$t.log | grep -E "megakernel|timesliced" | awk -F'  +' '{print $3}' | tr '\n' ';'; echo; done
echo "runtime done at $SECONDS s"
for f in build/new/tests/runtime/test_*gpu* build/new/tests/tasks/jacobi/test_jacobi_gpu; do [ -x $f ] || continue; APIARY_TEST_QUICK=1 timeout 200 $f > /tmp/t.log 2>&1; echo "$(basename $f) rc $? $(grep -E 'PASSED|FAILED' /tmp/t.log | tr '\n' ' ')"; grep -E "^\[  FAILED" /tmp/t.log | head; done
sed -i "s#$PWD#.#g" $OUT/*.log
echo "all done at $SECONDS s"
