#!/usr/bin/env bash
# Session 31 P5: the real Narrow BFS loop (helpers verbatim) in a plain kernel, against the probe.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
bash .run/mkprobe2.sh . /tmp/probe2.cu
( cd /tmp && nvcc -O3 -std=c++20 -arch=sm_90 --expt-relaxed-constexpr -I$OLDPWD probe2.cu -o /tmp/probe2 ) 2>&1 | grep -m5 error
nvcc -O3 -std=c++17 -arch=sm_90 .run/bfsprobe.cu -o /tmp/bfsprobe
echo "built at $SECONDS s"
/tmp/probe2 1000 2>&1 | tee $OUT/p5_real.log
/tmp/bfsprobe 1000 2>&1 | head -5 | tee $OUT/p5_probe.log
echo "all done at $SECONDS s"
