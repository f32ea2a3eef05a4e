#!/usr/bin/env bash
# Session 34, call R4 (H100): the working tree's RCM tests, then bench_rcm twice (its "no bitmap" row is the baseline in the same process).
# Copy to .run/ with session 32's docs/results/2026-11-27-h200-h100-session32/scripts/setup3.sh.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
JOBS=16 .run/setup3.sh "bench_rcm test_rcm_gpu" new
echo "built at $SECONDS s"
timeout 150 build/new/tests/tasks/rcm/test_rcm_gpu > $OUT/r4_test_rcm_gpu.log 2>&1; echo "test_rcm_gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $OUT/r4_test_rcm_gpu.log | tr '\n' ' ') at $SECONDS s"
for t in new new; do
  [ $SECONDS -gt 400 ] && { echo "stopped (time)"; break; }
  timeout 100 build/$t/bench/bench_rcm --no-shared --reps 3 >> $OUT/r4_rcm_$t.log 2>&1; echo "== rcm $t at $SECONDS s"
  grep -E "tasks|cub" $OUT/r4_rcm_$t.log | tail -15 | cut -c1-20,60-220
done
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log 2>/dev/null
echo "all done at $SECONDS s"
