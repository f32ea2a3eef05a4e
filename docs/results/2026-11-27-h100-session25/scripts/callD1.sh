#!/usr/bin/env bash
# Session 25 D1: the build option / worker-kernel change on the GPU (release and controller builds), and Jacobi traces at 10^4 and 10^5.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
source scripts/env.sh
M=$PWD/.matrices
( JOBS=10 .run/setup3.sh "test_runtime_gpu test_generic_gpu test_jacobi_gpu test_apps apiary bench_jacobi example_tree_sum" new ) &
( cmake -S . -B build/ctl -G Ninja -DCMAKE_BUILD_TYPE=Release -DAPIARY_CONTROLLER=ON -DAPIARY_BUILD_BENCH=OFF "${cmake_prefix_args[@]}" -DAPIARY_SHARED_MATRICES=$M > /dev/null 2>&1 &&
  ninja -C build/ctl -j 6 test_runtime_gpu test_generic_gpu > /tmp/b_ctl.log 2>&1; echo "build ctl rc $?"; grep -m3 " error" /tmp/b_ctl.log ) &
wait
echo "built at $SECONDS s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
run() { local name=$1; shift; timeout 300 "$@" > $OUT/$name.log 2>&1; echo "$name rc $? $(grep -E '^\[  PASSED|^\[  FAILED|tests? skipped' $OUT/$name.log | head -3 | tr '\n' ' ') at $SECONDS s"; grep -E "^\[  FAILED" $OUT/$name.log | head -5; }
run rt_release build/new/tests/runtime/test_runtime_gpu
run rt_controller build/ctl/tests/runtime/test_runtime_gpu
run generic_release build/new/tests/tasks/generic/test_generic_gpu
run generic_controller build/ctl/tests/tasks/generic/test_generic_gpu
run jacobi build/new/tests/tasks/jacobi/test_jacobi_gpu --gtest_filter='*Trace*:*utonomous*'
run apps build/new/tests/apps/test_apps
timeout 60 build/new/apps/examples/example_tree_sum 100000 megakernel timesliced > $OUT/tree_sum.log 2>&1; echo "tree_sum rc $?"
A=build/new/apps/apiary
mkdir -p /tmp/tr
for spec in "dd:526:11:27 512" "dd:5263:11:27 1024" "dd:5263:11:27 512"; do
  set -- $spec
  timeout 60 $A jacobi $1 --variant autonomous --scheduler megakernel --tol 0 --max-iter 100 --nnz-budget $2 --reps 3 --trace /tmp/tr/$1_$2 >> $OUT/jacobi_traces.log 2>&1; echo "trace $1 $2 rc $?"
done
tar -czf $OUT/traces.tgz -C /tmp/tr .
sed -i "s#$PWD#.#g" $OUT/*.log
echo "all done at $SECONDS s"
