#!/usr/bin/env bash
# Session 39 M2: the prepare hook v2 (cp.async of fixed staged-constant blocks, left in flight) + two barriers fewer (new),
# newN (new without the staged constants), old (eb27d22): tests, benches, alternated, sanitizers.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
( JOBS=8 .run/setup3.sh "bench_jacobi test_jacobi_gpu test_runtime_gpu" new ) &
( JOBS=4 .run/setup3.sh "bench_jacobi" old ) &
( JOBS=4 .run/setup3.sh "bench_jacobi" newN ) &
wait
echo "built at $SECONDS s"
for t in runtime/test_runtime_gpu tasks/jacobi/test_jacobi_gpu; do
  n=$(basename $t)
  timeout 200 build/new/tests/$t > $OUT/m2_$n.log 2>&1; echo "$n rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]|SKIPPED \]' $OUT/m2_$n.log | head -8 | tr '\n' ' ') at $SECONDS s"
done
grep -E "APreparedTask" $OUT/m2_test_runtime_gpu.log | tail -4
for t in new newN old new newN old; do
  timeout 60 build/$t/bench/bench_jacobi --iterations 100 --reps 3 --nnz 1e4,1e5,1e6 --nnz-budget auto,256,512 \
    --variants autonomous >> $OUT/m2_small_$t.log 2>&1; echo "== jacobi $t at $SECONDS s"
done
for t in new newN old; do
  timeout 60 build/$t/bench/bench_jacobi --iterations 50 --reps 3 --nnz 1e7 --spec poisson3d:150 --variants autonomous \
    --nnz-budget auto >> $OUT/m2_10e7_$t.log 2>&1
done
python3 - "$OUT" <<'PY' | tee $OUT/m2_table.txt
import sys, re, collections
out = sys.argv[1]
for kind in ("small", "10e7"):
    rows = collections.defaultdict(dict)
    for t in ("new", "newN", "old"):
        for line in open(f"{out}/m2_{kind}_{t}.log"):
            f = line.split()
            if len(f) > 8 and f[5] in ("graph", "autonomous") and re.match(r"^[0-9.]+$", f[7]):
                rows[(f[0], f[2], f[5])].setdefault(t, []).append(f[7])
    for k, v in rows.items(): print(kind, *k, *("%s %s" % (t, "/".join(v.get(t, []))) for t in ("new", "newN", "old")))
PY
T=build/new/tests/tasks/jacobi/test_jacobi_gpu
for tool in memcheck synccheck racecheck; do
  [ $SECONDS -gt 450 ] && { echo "$tool jacobi not run (time)"; continue; }
  APIARY_TEST_QUICK=1 timeout $((520 - SECONDS)) compute-sanitizer --tool $tool --error-exitcode 3 $T --gtest_filter='*ChunksInsideAndOutsideTheSharedStageAgree/*megakernel*:*RepeatedSolvesAndOtherVariantsGiveTheSameBits/*megakernel*' > $OUT/m2_san_jacobi_$tool.txt 2>&1; echo "$tool jacobi rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/m2_san_jacobi_$tool.txt | tr '\n' ' ') at $SECONDS s"
done
for tool in memcheck synccheck racecheck; do
  [ $SECONDS -gt 560 ] && { echo "$tool runtime not run (time)"; continue; }
  timeout $((590 - SECONDS)) compute-sanitizer --tool $tool --error-exitcode 3 build/new/tests/runtime/test_runtime_gpu --gtest_filter='*APreparedTask*' > $OUT/m2_san_runtime_$tool.txt 2>&1; echo "$tool runtime rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/m2_san_runtime_$tool.txt | tr '\n' ' ') at $SECONDS s"
done
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log $OUT/*.txt 2>/dev/null
(cd $OUT && tar -cf m2_logs.tar m2_* && find . -maxdepth 1 -name 'm2_*' ! -name m2_logs.tar -delete)
echo "all done at $SECONDS s"
