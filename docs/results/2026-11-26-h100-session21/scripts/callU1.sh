#!/usr/bin/env bash
# Session 21 U1: RCM Cuthill–McKee from the last BFS's levels (Rank): tests, then bench on the generated inputs.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=16 .run/setup3.sh "test_rcm_gpu bench_rcm" new
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 400 build/new/tests/tasks/rcm/test_rcm_gpu > $OUT/test_rcm_gpu.log 2>&1; echo "test_rcm_gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/test_rcm_gpu.log | tr '\n' ' ')"
grep -E "FAILED|Failure" $OUT/test_rcm_gpu.log | head -20
echo "tests at $SECONDS s"
timeout 200 build/new/bench/bench_rcm --no-shared --reps 3 --json $OUT/bench_rcm.json > $OUT/bench_rcm.log 2>&1; echo "bench rc $?"; cat $OUT/bench_rcm.log
sed -i "s#$PWD#.#g" $OUT/*
echo "all done at $SECONDS s"
