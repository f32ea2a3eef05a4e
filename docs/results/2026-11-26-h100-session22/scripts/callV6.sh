#!/usr/bin/env bash
# Session 22 V6: the whole RCM benchmark at 7dbef07.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=16 .run/setup3.sh "bench_rcm" new
echo "built at $SECONDS s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 400 build/new/bench/bench_rcm --reps 3 --json $OUT/bench_rcm.json > $OUT/bench_rcm.log 2>&1; echo "bench rc $?"; grep -E "poisson|random_spd" $OUT/bench_rcm.log
sed -i "s#$PWD#.#g" $OUT/*
echo "all done at $SECONDS s"
