#!/usr/bin/env bash
# Session 33 R4: the table block of a Narrow BFS level split into column loads, lookups and inserts (rank 0's clock).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
JOBS=16 .run/setup3.sh "bench_rcm" newF
echo "built at $SECONDS s"
timeout 80 build/newF/bench/bench_rcm --no-shared --reps 1 > $OUT/r4_rcm_newF.log 2>&1; echo "== rcm newF at $SECONDS s"
grep -m8 DBG $OUT/r4_rcm_newF.log | cut -c1-250
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log 2>/dev/null
echo "all done at $SECONDS s"
