#!/usr/bin/env bash
# Session 31 P3: the BFS probe with non-aligned barriers and with idle blocks polling a hot word.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvcc -O3 -std=c++17 -arch=sm_90 .run/bfsprobe.cu -o /tmp/bfsprobe
/tmp/bfsprobe 1000 2>&1 | tee $OUT/p3_probe.log
echo "all done at $SECONDS s"
