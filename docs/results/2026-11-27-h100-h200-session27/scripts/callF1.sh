#!/usr/bin/env bash
# Session 27 F1: branch waiting-claim-pollers (rebased on main) = new, 359d450 = old.
# Build everything in new, run every test (ctest), build old's benchmarks and the controller's GPU tests.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
source scripts/env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
JOBS=16 .run/setup3.sh all new
echo "built new at $SECONDS s"
bash .run/regs.sh new | grep VariantE4
( ctest --test-dir build/new -j 4 --timeout 300 > $OUT/ctest_new.log 2>&1; echo "ctest rc $? at $SECONDS s"; grep -E "tests passed|tests failed|Total Test" $OUT/ctest_new.log; grep -E "\*\*\*|Failed  " $OUT/ctest_new.log | head -20 ) &
JOBS=10 .run/setup3.sh "apiary bench_jacobi bench_sptrsv" old
echo "built old at $SECONDS s"
( cmake -S . -B build/ctl -G Ninja -DCMAKE_BUILD_TYPE=Release -DAPIARY_CONTROLLER=ON -DAPIARY_BUILD_BENCH=OFF -DAPIARY_SHARED_MATRICES=$PWD/.matrices "${cmake_prefix_args[@]}" > /dev/null 2>&1 &&
  ninja -C build/ctl -j 10 test_runtime_gpu test_jacobi_gpu test_pcg_gpu > /tmp/b_ctl.log 2>&1; echo "build ctl rc $? at $SECONDS s"; grep -m3 " error" /tmp/b_ctl.log )
wait
sed -i "s#$PWD#.#g" $OUT/*.log
echo "all done at $SECONDS s"
