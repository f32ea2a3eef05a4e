#!/usr/bin/env bash
# Session 31 P4: host timing of each RCM search run (newT = main + patch_T.sh).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
JOBS=16 .run/setup3.sh "bench_rcm" newT
echo "built at $SECONDS s"
timeout 200 build/newT/bench/bench_rcm --no-shared --reps 2 > $OUT/p4_rcm_newT.log 2>&1
grep -E "^T bfs|megakernel  " $OUT/p4_rcm_newT.log | head -60
sed -i "s#$PWD#.#g" $OUT/*.log
echo "all done at $SECONDS s"
