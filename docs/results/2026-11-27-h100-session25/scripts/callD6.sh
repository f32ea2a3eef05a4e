#!/usr/bin/env bash
# Session 25 D6: the final tree, release and controller builds: GPU tests, Jacobi and RCM benchmarks, Jacobi traces.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
source scripts/env.sh
M=$PWD/.matrices
( JOBS=10 .run/setup3.sh "test_runtime_gpu test_generic_gpu test_jacobi_gpu test_apps apiary bench_jacobi bench_rcm" new ) &
( cmake -S . -B build/ctl -G Ninja -DCMAKE_BUILD_TYPE=Release -DAPIARY_CONTROLLER=ON -DAPIARY_BUILD_BENCH=OFF "${cmake_prefix_args[@]}" -DAPIARY_SHARED_MATRICES=$M > /dev/null 2>&1 &&
  ninja -C build/ctl -j 6 test_runtime_gpu test_generic_gpu test_jacobi_gpu > /tmp/b_ctl.log 2>&1; echo "build ctl rc $?"; grep -m3 " error" /tmp/b_ctl.log ) &
wait
echo "built at $SECONDS s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
run() { local name=$1; shift; timeout 300 "$@" > /tmp/$name.log 2>&1; echo "$name rc $? $(grep -E '^\[  PASSED|^\[  FAILED|tests? skipped' /tmp/$name.log | head -3 | tr '\n' ' ') at $SECONDS s"; grep -E "^\[  FAILED" /tmp/$name.log | head -5; tail -3 /tmp/$name.log >> $OUT/tests_tail.log; }
run rt_release build/new/tests/runtime/test_runtime_gpu
run rt_controller build/ctl/tests/runtime/test_runtime_gpu
run generic_release build/new/tests/tasks/generic/test_generic_gpu
run generic_controller build/ctl/tests/tasks/generic/test_generic_gpu
run jacobi_release build/new/tests/tasks/jacobi/test_jacobi_gpu
run jacobi_controller build/ctl/tests/tasks/jacobi/test_jacobi_gpu
run apps build/new/tests/apps/test_apps
S="--iterations 100 --reps 3 --nnz 1e4,1e5 --nnz-budget auto,512,1024 --variants autonomous"
for p in 1 2; do timeout 120 build/new/bench/bench_jacobi $S >> $OUT/jacobi_final.log 2>&1; echo "== jacobi pass $p at $SECONDS s"; done
grep -E "megakernel|graph |kernels " $OUT/jacobi_final.log | awk '{print $2,$3,$6,$8}' | awk '{k=$1" "$2" "$3; a[k]=a[k]" "$4} END {for (k in a) print k":"a[k]}' | sort
timeout 200 build/new/bench/bench_rcm --no-shared --reps 3 > $OUT/rcm_final.log 2>&1; echo "== rcm at $SECONDS s"; grep -E "tasks megakernel  " $OUT/rcm_final.log | awk '{print $1, $(NF-6), $(NF-5), $(NF-4), $(NF-2), $(NF-1)}'
mkdir -p /tmp/tr
for spec in "dd:526:11:27 512" "dd:5263:11:27 1024"; do
  set -- $spec
  timeout 60 build/new/apps/apiary jacobi $1 --variant autonomous --scheduler megakernel --tol 0 --max-iter 100 --nnz-budget $2 --reps 3 --trace /tmp/tr/$1_$2 > /dev/null 2>&1; echo "trace $1 $2 rc $?"
done
tar -czf $OUT/traces.tgz -C /tmp/tr .
sed -i "s#$PWD#.#g" $OUT/*.log
echo "all done at $SECONDS s"
