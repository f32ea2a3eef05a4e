#!/usr/bin/env bash
# Session 38 J5: the final tree (JacobiRows asks for 3 blocks per SM in stages-phases and checkpoints only; the
# task-type minimum and its test; Narrow's abort flag): tests, old against new, sanitizers.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
( JOBS=10 .run/setup3.sh "bench_jacobi test_jacobi_gpu test_rcm_gpu test_runtime_gpu" new ) &
( JOBS=6 .run/setup3.sh "bench_jacobi" old ) &
wait
echo "built at $SECONDS s"
for t in runtime/test_runtime_gpu tasks/jacobi/test_jacobi_gpu tasks/rcm/test_rcm_gpu; do
  n=$(basename $t)
  timeout 200 build/new/tests/$t > $OUT/j5_$n.log 2>&1; echo "$n rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]|SKIPPED \]' $OUT/j5_$n.log | head -8 | tr '\n' ' ') at $SECONDS s"
done
grep -E "TheMinimumOfBlocks" $OUT/j5_test_runtime_gpu.log | tail -2
for t in new old new old; do
  timeout 110 build/$t/bench/bench_jacobi --iterations 50 --reps 3 --nnz 1e7 --spec poisson3d:150 --variants autonomous,stages-deps,stages-phases,checkpoints \
    --nnz-budget auto,16384,32768,65536 --row-budget 65536 >> $OUT/j5_10e7_$t.log 2>&1
  timeout 60 build/$t/bench/bench_jacobi --iterations 100 --reps 3 --nnz 1e4,1e5,1e6 --nnz-budget auto,512 \
    --variants autonomous,stages-deps,stages-phases,checkpoints >> $OUT/j5_small_$t.log 2>&1; echo "== jacobi $t at $SECONDS s"
done
python3 - "$OUT" <<'PY' | tee $OUT/j5_table.txt
import sys, re, collections
out = sys.argv[1]
for kind in ("10e7", "small"):
    rows = collections.defaultdict(dict)
    for t in ("new", "old"):
        for line in open(f"{out}/j5_{kind}_{t}.log"):
            f = line.split()
            if len(f) > 8 and f[5] in ("graph", "autonomous", "stages-deps", "stages-phases", "checkpoints") and re.match(r"^[0-9.]+$", f[7]):
                rows[(f[0], f[2], f[5])].setdefault(t, []).append(f[7])
    for k, v in rows.items(): print(kind, *k, "new", "/".join(v.get("new", [])), "old", "/".join(v.get("old", [])))
PY
T=build/new/tests/tasks/jacobi/test_jacobi_gpu
for tool in memcheck synccheck racecheck; do
  [ $SECONDS -gt 480 ] && { echo "$tool jacobi not run (time)"; continue; }
  APIARY_TEST_QUICK=1 timeout $((540 - SECONDS)) compute-sanitizer --tool $tool --error-exitcode 3 $T --gtest_filter='*ChunksInsideAndOutsideTheSharedStageAgree/*megakernel*:*RepeatedSolvesAndOtherVariantsGiveTheSameBits/*megakernel*' > $OUT/j5_san_jacobi_$tool.txt 2>&1; echo "$tool jacobi rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/j5_san_jacobi_$tool.txt | tr '\n' ' ') at $SECONDS s"
done
for tool in memcheck synccheck; do
  [ $SECONDS -gt 560 ] && { echo "$tool runtime not run (time)"; continue; }
  timeout $((590 - SECONDS)) compute-sanitizer --tool $tool --error-exitcode 3 build/new/tests/runtime/test_runtime_gpu --gtest_filter='TaskTypes.*' > $OUT/j5_san_runtime_$tool.txt 2>&1; echo "$tool runtime rc $? $(grep -E 'ERROR SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/j5_san_runtime_$tool.txt | tr '\n' ' ') at $SECONDS s"
done
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log $OUT/*.txt 2>/dev/null
(cd $OUT && tar -cf j5_logs.tar j5_* && find . -maxdepth 1 -name 'j5_*' ! -name j5_logs.tar -delete)
echo "all done at $SECONDS s"
