#!/usr/bin/env bash
# Session 31 P1: single-block BFS probe (row bounds at staging vs a 16-byte vertex record).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvcc -O3 -std=c++17 -arch=sm_90 .run/bfsprobe.cu -o /tmp/bfsprobe && nvcc -O3 -std=c++17 -arch=sm_90 -maxrregcount=128 .run/bfsprobe.cu -o /tmp/bfsprobe128
echo "built at $SECONDS s"
/tmp/bfsprobe 1000 2>&1 | tee $OUT/p1_probe.log
/tmp/bfsprobe128 1000 2>&1 | tee $OUT/p1_probe128.log
/tmp/bfsprobe 300 2>&1 | tee $OUT/p1_probe300.log
echo "all done at $SECONDS s"
