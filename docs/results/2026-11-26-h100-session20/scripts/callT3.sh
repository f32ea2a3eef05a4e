#!/usr/bin/env bash
# Session 20 T3: Nsight Compute of the autonomous megakernel, poisson3d:150 at 65536/16384, old vs new (windows).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=8 .run/setup3.sh "bench_jacobi" old new
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
NCU=$(which ncu 2>/dev/null || ls /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
echo "ncu: $NCU"
for t in old new; do
  timeout 200 $NCU -k regex:megakernel -c 1 --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy --section LaunchStats \
    build/$t/bench/bench_jacobi --spec poisson3d:150 --iterations 20 --reps 1 --nnz-budget 65536 --row-budget 16384 --variants autonomous > $OUT/ncu_$t.txt 2>&1
  echo "ncu $t rc $? at $SECONDS s"
  grep -E "Duration|DRAM Throughput|Memory Throughput|L1/TEX Hit|L2 Hit|Stall|Achieved Occupancy|Registers Per|Block Limit|Dynamic Shared|Warp Cycles Per Issued" $OUT/ncu_$t.txt | head -40
done
sed -i "s#$PWD#.#g" $OUT/*.txt
echo "all done at $SECONDS s"
