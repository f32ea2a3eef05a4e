#!/usr/bin/env bash
# Session 32 Q9: on an H100, more passes of the final tree's RCM benchmark (does 50x cuSOLVER hold on the 2D grid?).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
JOBS=16 .run/setup3.sh "bench_rcm" new
echo "built at $SECONDS s"
for i in 1 2 3; do
  [ $SECONDS -gt 200 ] && { echo "stopped before pass $i (time)"; break; }
  timeout 60 build/new/bench/bench_rcm --no-shared --reps 3 >> $OUT/q9_rcm_new.log 2>&1; echo "== rcm new pass $i at $SECONDS s"
  grep -E "megakernel  |timesliced  " $OUT/q9_rcm_new.log | tail -6 | cut -c1-20,90-200
done
sed -i "s#$PWD#.#g" $OUT/*.log
echo "all done at $SECONDS s"
