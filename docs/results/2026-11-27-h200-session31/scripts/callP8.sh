#!/usr/bin/env bash
# Session 31 P8: the real Narrow loop in a plain kernel: with/without publish_next, verbatim/constant e.bfs.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
for v in verbatim constbfs; do
  bash .run/mkprobe2.sh . /tmp/probe2_$v.cu $v
  ( cd /tmp && nvcc -O3 -std=c++20 -arch=sm_90 --expt-relaxed-constexpr -I$OLDPWD probe2_$v.cu -o /tmp/probe2_$v 2>&1 | grep -m5 error ) &
done; wait
echo "built at $SECONDS s"
for v in verbatim constbfs; do /tmp/probe2_$v 1000; done 2>&1 | tee $OUT/p8_real.log
echo "all done at $SECONDS s"
