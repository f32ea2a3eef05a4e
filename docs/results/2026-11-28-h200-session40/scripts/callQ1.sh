#!/usr/bin/env bash
# Session 40 Q1: update_rows_piped v2 (warp-level hand-over, no block barrier), capped (new) and uncapped (newU),
# against old at 10^7; Nsight Compute on the autonomous megakernel (old, new) and on the kernels' update kernel.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
which ncu || ls /usr/local/cuda/bin | grep -i ncu
( JOBS=6 .run/setup3.sh "bench_jacobi test_jacobi_gpu apiary" new ) &
( JOBS=5 .run/setup3.sh "bench_jacobi apiary" old ) &
( JOBS=5 .run/setup3.sh "bench_jacobi" newU ) &
wait
echo "built at $SECONDS s"
timeout 100 build/new/tests/tasks/jacobi/test_jacobi_gpu --gtest_filter='*ChunksInside*:*Repeated*' > $OUT/q1_test_jacobi_gpu.log 2>&1; echo "jacobi rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $OUT/q1_test_jacobi_gpu.log | head -8 | tr '\n' ' ') at $SECONDS s"
for t in new old newU new old newU; do
  timeout 60 build/$t/bench/bench_jacobi --iterations 50 --reps 3 --nnz 1e7 --spec poisson3d:150 --variants autonomous \
    --nnz-budget auto >> $OUT/q1_10e7_$t.log 2>&1; echo "10e7 $t rc $? at $SECONDS s"
done
python3 - "$OUT" <<'PY' | tee $OUT/q1_table.txt
import sys, re, collections
out = sys.argv[1]
for kind, trees in (("10e7", ("new", "old", "newU")),):
    rows = collections.defaultdict(dict)
    for t in trees:
        for line in open(f"{out}/q1_{kind}_{t}.log"):
            f = line.split()
            if len(f) > 8 and f[5] in ("graph", "autonomous", "checkpoints") and re.match(r"^[0-9.]+$", f[7]):
                rows[(f[0], f[2], f[5], f[6])].setdefault(t, []).append(f[7])
    for k, v in rows.items(): print(kind, *k, *("%s %s" % (t, "/".join(v.get(t, []))) for t in trees))
PY
S="--section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats --section SchedulerStats"
for t in old new; do
  timeout 120 ncu -k regex:megakernel --launch-skip 1 --launch-count 1 $S build/$t/apps/apiary jacobi poisson3d:150 --variant autonomous \
    --nnz-budget auto --max-iter 50 --tol 0 --reps 1 > $OUT/q1_ncu_$t.txt 2>&1; echo "ncu $t rc $? at $SECONDS s"
done
timeout 120 ncu -k regex:update_kernel --launch-skip 5 --launch-count 1 $S build/old/apps/apiary jacobi poisson3d:150 --variant kernels \
    --nnz-budget 16384 --row-budget 1024 --max-iter 20 --tol 0 --reps 1 > $OUT/q1_ncu_kernels.txt 2>&1; echo "ncu kernels rc $? at $SECONDS s"
grep -E "Registers Per|Achieved Occupancy|Memory Throughput|DRAM Throughput|Duration|Stall|Warp Cycles Per Issued|Issued Warp|No Eligible|Active Warps Per" $OUT/q1_ncu_*.txt | cut -c1-150
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log $OUT/*.txt 2>/dev/null
echo "all done at $SECONDS s"
