#!/usr/bin/env bash
# Session 25 D9: the final tree: GPU tests, Jacobi autonomous, Jacobi megakernel registers.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
JOBS=16 .run/setup3.sh "test_runtime_gpu test_jacobi_gpu test_rcm_gpu test_generic_gpu test_apps apiary bench_jacobi" new
echo "built at $SECONDS s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
bash .run/regs.sh new
run() { local name=$1; shift; timeout 300 "$@" > /tmp/$name.log 2>&1; echo "$name rc $? $(grep -E '^\[  PASSED|^\[  FAILED|tests? skipped' /tmp/$name.log | head -3 | tr '\n' ' ') at $SECONDS s"; grep -E "^\[  FAILED" /tmp/$name.log | head -5; tail -3 /tmp/$name.log >> $OUT/tests_tail.log; }
run runtime build/new/tests/runtime/test_runtime_gpu
run jacobi build/new/tests/tasks/jacobi/test_jacobi_gpu
run rcm build/new/tests/tasks/rcm/test_rcm_gpu
run generic build/new/tests/tasks/generic/test_generic_gpu
run apps build/new/tests/apps/test_apps
timeout 100 build/new/bench/bench_jacobi --iterations 100 --reps 3 --nnz 1e4,1e5 --nnz-budget auto,512 --variants autonomous > $OUT/jacobi_final.log 2>&1
grep -E "megakernel|graph |kernels " $OUT/jacobi_final.log | awk '{print $2,$3,$6,$8}'
sed -i "s#$PWD#.#g" $OUT/*.log
echo "all done at $SECONDS s"
