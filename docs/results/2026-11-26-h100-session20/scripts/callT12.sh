#!/usr/bin/env bash
# Session 20 T12: HEAD's tree (new: the take's exit, the merged wave tests) vs 00adcb3 (old): runtime GPU tests; bench_jacobi small (autonomous), bench_runtime.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=8 .run/setup3.sh "test_runtime_gpu bench_jacobi bench_runtime" old new
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 120 build/new/tests/runtime/test_runtime_gpu > $OUT/test_runtime_gpu.log 2>&1; echo "runtime gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/test_runtime_gpu.log | tr '\n' ' ')"
S="--iterations 100 --reps 3 --nnz 1e4,1e5,1e6 --nnz-budget 512,1024,4096 --row-budget 4096 --variants autonomous"
for t in old new; do echo "== jacobi small $t"; timeout 60 build/$t/bench/bench_jacobi $S 2>&1 | tee $OUT/jacobi_$t.log | grep -E "autonomous|graph " | awk '{print $2,$3,$6,$8}' | tr '\n' ';'; echo; done
for t in old new; do echo "== runtime $t"; timeout 60 build/$t/bench/bench_runtime --reps 5 > $OUT/runtime_$t.log 2>&1; echo "rc $?"; grep -E "megakernel" $OUT/runtime_$t.log | grep -E "hop|switch|one task \(host" | awk '{$1=$1};1' | cut -c1-90; done
sed -i "s#$PWD#.#g" $OUT/*.log
echo "all done at $SECONDS s"
