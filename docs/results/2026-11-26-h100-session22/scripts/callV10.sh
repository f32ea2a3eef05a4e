#!/usr/bin/env bash
# Session 22 V10: experiment newT1 (kMaxTaskTile 1024: less shared memory, more L1) vs new (HEAD), bench only, two runs each.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=8 .run/setup3.sh "bench_rcm" new newT1
echo "built at $SECONDS s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
i=0; for t in newT1 new newT1 new; do i=$((i+1)); timeout 100 build/$t/bench/bench_rcm --no-shared --reps 3 > $OUT/bench_rcm_${i}_$t.log 2>&1; echo "bench $t rc $?"; grep -E "tasks megakernel +[0-9]|tasks timesliced" $OUT/bench_rcm_${i}_$t.log; done
sed -i "s#$PWD#.#g" $OUT/*
echo "all done at $SECONDS s"
