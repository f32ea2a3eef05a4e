#!/usr/bin/env bash
# Session 40 Y1: Nsight Compute, full set with warp-state sampling per SASS instruction, on the autonomous
# megakernel at 10^5 non-zeros (auto budget, 99 row tasks, 1 block per SM): where a row task's time goes.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
( JOBS=16 .run/setup3.sh "bench_jacobi" new )
echo "built at $SECONDS s"
B=build/new/bench/bench_jacobi
timeout 240 ncu -k regex:megakernel --launch-skip 1 --launch-count 1 --set full --import-source no -o $OUT/y1_1e5 -f \
  $B --iterations 100 --reps 1 --nnz 1e5 --nnz-budget auto --variants autonomous > $OUT/y1_ncu_run.log 2>&1; echo "ncu rc $? at $SECONDS s"
ncu --import $OUT/y1_1e5.ncu-rep --print-summary none > $OUT/y1_details.txt 2>&1; echo "details rc $?"
ncu --import $OUT/y1_1e5.ncu-rep --page source --csv --print-source sass > $OUT/y1_source_sass.csv 2>$OUT/y1_source_err.txt; echo "source rc $? $(wc -l < $OUT/y1_source_sass.csv) lines"
head -c 600 $OUT/y1_source_err.txt
head -3 $OUT/y1_source_sass.csv | cut -c1-600
grep -E "Duration|Registers Per|Achieved Active Warps|Warp Cycles Per Issued|Issued Warp Per" $OUT/y1_details.txt | head
gzip -q $OUT/y1_source_sass.csv; rm -f $OUT/y1_1e5.ncu-rep
sed -i "s#$PWD#.#g" $OUT/*.log $OUT/*.txt 2>/dev/null
echo "all done at $SECONDS s"
