#!/usr/bin/env bash
# Session 20 T13: the watchdog check written out again (new) vs 00adcb3 (old): runtime GPU tests, bench_jacobi small (autonomous) twice each.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=8 .run/setup3.sh "test_runtime_gpu bench_jacobi" old new
echo "built at $SECONDS s"
timeout 100 build/new/tests/runtime/test_runtime_gpu > $OUT/test_runtime_gpu.log 2>&1; echo "runtime gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/test_runtime_gpu.log | tr '\n' ' ')"
S="--iterations 100 --reps 3 --nnz 1e4,1e5 --nnz-budget 512,1024 --row-budget 4096 --variants autonomous"
for t in old new old new; do echo "== jacobi small $t"; timeout 40 build/$t/bench/bench_jacobi $S 2>&1 | tee -a $OUT/jacobi_$t.log | grep -E "autonomous|graph " | awk '{print $2,$3,$6,$8}' | tr '\n' ';'; echo; done
sed -i "s#$PWD#.#g" $OUT/*.log
echo "all done at $SECONDS s"
