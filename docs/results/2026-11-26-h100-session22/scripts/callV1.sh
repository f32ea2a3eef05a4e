#!/usr/bin/env bash
# Session 22 V1: least-degree first starts + loop-free device graph (new) vs bc48151 (old): tests, bench of both.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=8 .run/setup3.sh "test_rcm_gpu test_rcm_host test_sparse bench_rcm" new old
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for b in tasks/rcm/test_rcm_host tasks/rcm/test_rcm_gpu sparse/test_sparse; do n=$(basename $b); timeout 200 build/new/tests/$b > $OUT/$n.log 2>&1; echo "$n rc $? $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/$n.log | tr '\n' ' ')"; done
grep -E "Failure" -A6 $OUT/test_rcm_gpu.log | head -30
echo "tests at $SECONDS s"
i=0; for t in new old new; do i=$((i+1)); timeout 150 build/$t/bench/bench_rcm --no-shared --reps 3 > $OUT/bench_rcm_${i}_$t.log 2>&1; echo "bench $t rc $?"; grep -E "poisson|random_spd" $OUT/bench_rcm_${i}_$t.log; done
echo "bench at $SECONDS s"
sed -i "s#$PWD#.#g" $OUT/*
echo "all done at $SECONDS s"
