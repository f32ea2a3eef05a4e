#!/usr/bin/env bash
# Session 33 R2: why the tables were slower. old = HEAD, new = tables (4096 slots, 105 KB smem),
# newS = HEAD + 48 KB unused shared memory, newU = tables with rolled probe loops. bench_rcm alternated.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
for t in new old newS newU; do ( JOBS=4 .run/setup3.sh "bench_rcm" $t ) & done
wait
echo "built at $SECONDS s"
for p in 1 2; do for t in old new newS newU; do
  [ $SECONDS -gt 540 ] && { echo "stopped before $t (time)"; break; }
  timeout 60 build/$t/bench/bench_rcm --no-shared --reps 3 >> $OUT/r2_rcm_$t.log 2>&1; echo "== rcm $t at $SECONDS s"
  grep -E "megakernel  " $OUT/r2_rcm_$t.log | tail -3 | cut -c1-20,90-200
done; done
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log 2>/dev/null
echo "all done at $SECONDS s"
