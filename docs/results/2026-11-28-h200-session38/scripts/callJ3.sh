#!/usr/bin/env bash
# Session 38 J3 (J2 again, its host test fixed): streamed update with 3 buffers of 1024 entries, JacobiRows asks for 3 blocks per SM (80 registers).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
( JOBS=9 .run/setup3.sh "bench_jacobi test_jacobi_gpu test_jacobi_host test_rcm_gpu" new ) &
( JOBS=7 .run/setup3.sh "bench_jacobi" old ) &
wait
echo "built at $SECONDS s"
for t in test_jacobi_gpu test_jacobi_host; do
  timeout 100 build/new/tests/tasks/jacobi/$t > $OUT/j3_$t.log 2>&1; echo "$t rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $OUT/j3_$t.log | head -8 | tr '\n' ' ') at $SECONDS s"
done
for t in new old new old; do
  timeout 110 build/$t/bench/bench_jacobi --iterations 50 --reps 3 --nnz 1e7 --spec poisson3d:150 --variants autonomous,stages-deps,stages-phases,checkpoints \
    --nnz-budget auto,8192,16384,32768,65536 --row-budget 65536 >> $OUT/j3_10e7_$t.log 2>&1
  echo "== jacobi 10^7 $t at $SECONDS s"
done
for t in new old new old; do
  timeout 60 build/$t/bench/bench_jacobi --iterations 100 --reps 3 --nnz 1e4,1e5,1e6 --nnz-budget auto,512 \
    --variants autonomous,stages-deps,stages-phases,checkpoints >> $OUT/j3_small_$t.log 2>&1; echo "== jacobi small $t at $SECONDS s"
done
python3 - "$OUT" <<'PY'
import sys, re, collections
out = sys.argv[1]
for kind in ("10e7", "small"):
    for t in ("new", "old"):
        rows = collections.defaultdict(list)
        for line in open(f"{out}/j3_{kind}_{t}.log"):
            f = line.split()
            if len(f) > 8 and f[5] in ("graph", "autonomous", "stages-deps", "stages-phases", "checkpoints") and re.match(r"^[0-9.]+$", f[7]):
                rows[(f[0], f[2], f[5])].append(f[7])
        for k, v in rows.items(): print(kind, t, *k, "/".join(v))
PY
T=build/new/tests/tasks/jacobi/test_jacobi_gpu
for tool in memcheck synccheck racecheck; do
  [ $SECONDS -gt 500 ] && { echo "$tool jacobi not run (time)"; continue; }
  APIARY_TEST_QUICK=1 timeout $((560 - SECONDS)) compute-sanitizer --tool $tool --error-exitcode 3 $T --gtest_filter='*ChunksInsideAndOutsideTheSharedStageAgree/*megakernel*' > $OUT/j3_san_jacobi_$tool.txt 2>&1; echo "$tool jacobi rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/j3_san_jacobi_$tool.txt | tr '\n' ' ') at $SECONDS s"
done
timeout 100 build/new/tests/tasks/rcm/test_rcm_gpu > $OUT/j3_test_rcm_gpu.log 2>&1; echo "test_rcm_gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $OUT/j3_test_rcm_gpu.log | tr '\n' ' ') at $SECONDS s"
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log $OUT/*.txt 2>/dev/null
(cd $OUT && tar -cf j3_logs.tar j3_* && find . -maxdepth 1 -name 'j3_*' ! -name j3_logs.tar -delete)
echo "all done at $SECONDS s"
