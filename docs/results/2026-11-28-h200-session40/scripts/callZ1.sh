#!/usr/bin/env bash
# Session 40 Z1: the autonomous arrival with the reserved record read by warp 1 beside rank 0's RMW (new) against
# old (41efc09): test_jacobi_gpu, benches alternated at 10^4-10^6 and once at 10^7, traces at 10^5, compute-sanitizer.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
( JOBS=10 .run/setup3.sh "bench_jacobi test_jacobi_gpu" new ) &
( JOBS=6 .run/setup3.sh "bench_jacobi" old ) &
wait
echo "built at $SECONDS s"
timeout 60 build/new/tests/tasks/jacobi/test_jacobi_gpu > $OUT/z1_test_jacobi_gpu.log 2>&1; echo "jacobi rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $OUT/z1_test_jacobi_gpu.log | head -8 | tr '\n' ' ') at $SECONDS s"
for t in new old new old new old; do
  timeout 30 build/$t/bench/bench_jacobi --iterations 100 --reps 3 --nnz 1e4,1e5,1e6 --nnz-budget auto,512 --variants autonomous \
    >> $OUT/z1_small_$t.log 2>&1; echo "small $t rc $? at $SECONDS s"
done
for t in new old; do
  timeout 30 build/$t/bench/bench_jacobi --iterations 50 --reps 3 --nnz 1e7 --spec poisson3d:150 --variants autonomous \
    --nnz-budget auto >> $OUT/z1_10e7_$t.log 2>&1; echo "10e7 $t rc $? at $SECONDS s"
done
mkdir -p $OUT/traces
for t in new old; do
  timeout 30 build/$t/bench/bench_jacobi --iterations 200 --reps 1 --nnz 1e5 --nnz-budget auto --variants autonomous \
    --trace $OUT/traces/$t > /dev/null 2>&1
  python3 bench/jacobi_trace_stats.py --tasks 99 $OUT/traces/$t-dd:5263:11:27-a1024-autonomous-megakernel.json
done 2>&1 | sed "s#$OUT/traces/##" | tee $OUT/z1_trace_stats.txt
rm -rf $OUT/traces
python3 - "$OUT" <<'PY' | tee $OUT/z1_table.txt
import sys, re, collections
out = sys.argv[1]
for kind in ("small", "10e7"):
    trees = ("new", "old")
    rows = collections.defaultdict(dict)
    for t in trees:
        for line in open(f"{out}/z1_{kind}_{t}.log"):
            f = line.split()
            if len(f) > 8 and f[5] in ("graph", "autonomous") and re.match(r"^[0-9.]+$", f[7]):
                rows[(f[0], f[2], f[4], f[5])].setdefault(t, []).append(f[7])
    for k, v in rows.items(): print(kind, *k, *("%s %s" % (t, "/".join(v.get(t, []))) for t in trees))
PY
T=build/new/tests/tasks/jacobi/test_jacobi_gpu
for tool in memcheck synccheck racecheck; do
  [ $SECONDS -gt 200 ] && { echo "$tool jacobi not run (time)"; continue; }
  APIARY_TEST_QUICK=1 timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 $T --gtest_filter='*StopBefore*/autonomous_megakernel:*Repeated*/autonomous_megakernel:*EveryIterate*/autonomous_megakernel:*CheckpointIntervals*/autonomous_megakernel' > $OUT/z1_san_jacobi_$tool.txt 2>&1; echo "$tool jacobi rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/z1_san_jacobi_$tool.txt | tr '\n' ' ') at $SECONDS s"
done
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log $OUT/*.txt 2>/dev/null
echo "all done at $SECONDS s"
