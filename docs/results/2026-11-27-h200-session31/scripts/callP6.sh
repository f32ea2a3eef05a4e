#!/usr/bin/env bash
# Session 31 P6: the BFS probe with 256, 512 and 1024 threads.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
for t in 256 512 1024; do nvcc -O3 -std=c++17 -arch=sm_90 -DPT=$t .run/bfsprobe.cu -o /tmp/bfsprobe$t & done; wait
echo "built at $SECONDS s"
for t in 256 512 1024; do echo "threads $t"; /tmp/bfsprobe$t 1000 2>&1 | grep -v "pollers 263"; done | tee $OUT/p6_probe.log
echo "all done at $SECONDS s"
