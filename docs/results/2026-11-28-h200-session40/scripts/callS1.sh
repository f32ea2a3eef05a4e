#!/usr/bin/env bash
# Session 40 S1: the final tree (session start + two more chunk cases in the GPU test): test_jacobi_gpu and
# compute-sanitizer on the chunk cases; newL (a quarter of the mean row length as the lanes' floor) against it at 10^7.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
( JOBS=10 .run/setup3.sh "bench_jacobi test_jacobi_gpu" new ) &
( JOBS=6 .run/setup3.sh "bench_jacobi" newL ) &
wait
echo "built at $SECONDS s"
timeout 150 build/new/tests/tasks/jacobi/test_jacobi_gpu > $OUT/s1_test_jacobi_gpu.log 2>&1; echo "jacobi rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $OUT/s1_test_jacobi_gpu.log | head -8 | tr '\n' ' ') at $SECONDS s"
for t in new newL new newL; do
  timeout 60 build/$t/bench/bench_jacobi --iterations 50 --reps 3 --nnz 1e7 --spec poisson3d:150 --variants autonomous \
    --nnz-budget auto >> $OUT/s1_10e7_$t.log 2>&1; echo "10e7 $t rc $? at $SECONDS s"
done
for t in new newL; do
  timeout 60 build/$t/bench/bench_jacobi --iterations 50 --reps 3 --nnz 1e7 --spec poisson3d:150 --variants autonomous \
    --nnz-budget 16384 --row-budget 1024 >> $OUT/s1_10e7b_$t.log 2>&1; echo "10e7b $t rc $? at $SECONDS s"
done
python3 - "$OUT" <<'PY' | tee $OUT/s1_table.txt
import sys, re, collections
out = sys.argv[1]
for kind, trees in (("10e7", ("new", "newL")), ("10e7b", ("new", "newL"))):
    rows = collections.defaultdict(dict)
    for t in trees:
        for line in open(f"{out}/s1_{kind}_{t}.log"):
            f = line.split()
            if len(f) > 8 and f[5] in ("kernels", "graph", "autonomous") and re.match(r"^[0-9.]+$", f[7]):
                rows[(f[0], f[2], f[4], f[5])].setdefault(t, []).append(f[7])
    for k, v in rows.items(): print(kind, *k, *("%s %s" % (t, "/".join(v.get(t, []))) for t in trees))
PY
grep -h "reference" $OUT/s1_10e7_new.log | head -2
T=build/new/tests/tasks/jacobi/test_jacobi_gpu
for tool in memcheck synccheck racecheck; do
  [ $SECONDS -gt 480 ] && { echo "$tool jacobi not run (time)"; continue; }
  APIARY_TEST_QUICK=1 timeout $((560 - SECONDS)) compute-sanitizer --tool $tool --error-exitcode 3 $T --gtest_filter='*ChunksInsideAndOutsideTheSharedStageAgree/*' > $OUT/s1_san_jacobi_$tool.txt 2>&1; echo "$tool jacobi rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/s1_san_jacobi_$tool.txt | tr '\n' ' ') at $SECONDS s"
done
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log $OUT/*.txt 2>/dev/null
echo "all done at $SECONDS s"
