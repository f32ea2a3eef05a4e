#!/usr/bin/env bash
# Session 33 R3: instrumented Narrow BFS levels: newD (tables) and newE (global claims), rank 0's clock per segment.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
for t in newD newE; do ( JOBS=8 .run/setup3.sh "bench_rcm" $t ) & done
wait
echo "built at $SECONDS s"
for t in newD newE; do
  timeout 80 build/$t/bench/bench_rcm --no-shared --reps 1 > $OUT/r3_rcm_$t.log 2>&1; echo "== rcm $t at $SECONDS s"
  grep -m6 DBG $OUT/r3_rcm_$t.log | cut -c1-250
  grep -E "megakernel  " $OUT/r3_rcm_$t.log | tail -3 | cut -c1-20,90-200
done
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log 2>/dev/null
echo "all done at $SECONDS s"
