#!/usr/bin/env bash
# Session 38 J4: the streamed update reverted; JacobiRows asks for 3 blocks per SM (80 registers in every variant); Narrow's abort flag.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
( JOBS=9 .run/setup3.sh "bench_jacobi test_jacobi_gpu test_rcm_gpu" new ) &
( JOBS=7 .run/setup3.sh "bench_jacobi" old ) &
wait
echo "built at $SECONDS s"
timeout 100 build/new/tests/tasks/jacobi/test_jacobi_gpu > $OUT/j4_test_jacobi_gpu.log 2>&1; echo "test_jacobi_gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $OUT/j4_test_jacobi_gpu.log | head -8 | tr '\n' ' ') at $SECONDS s"
timeout 100 build/new/tests/tasks/rcm/test_rcm_gpu > $OUT/j4_test_rcm_gpu.log 2>&1; echo "test_rcm_gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $OUT/j4_test_rcm_gpu.log | tr '\n' ' ') at $SECONDS s"
for t in new old new old; do
  timeout 110 build/$t/bench/bench_jacobi --iterations 50 --reps 3 --nnz 1e7 --spec poisson3d:150 --variants autonomous,stages-deps,stages-phases,checkpoints \
    --nnz-budget auto,8192,16384,32768,65536 --row-budget 65536 >> $OUT/j4_10e7_$t.log 2>&1
  timeout 60 build/$t/bench/bench_jacobi --iterations 100 --reps 3 --nnz 1e4,1e5,1e6 --nnz-budget auto,512 \
    --variants autonomous,stages-deps,stages-phases,checkpoints >> $OUT/j4_small_$t.log 2>&1; echo "== jacobi $t at $SECONDS s"
done
python3 - "$OUT" <<'PY'
import sys, re, collections
out = sys.argv[1]
for kind in ("10e7", "small"):
    rows = collections.defaultdict(dict)
    for t in ("new", "old"):
        for line in open(f"{out}/j4_{kind}_{t}.log"):
            f = line.split()
            if len(f) > 8 and f[5] in ("graph", "autonomous", "stages-deps", "stages-phases", "checkpoints") and re.match(r"^[0-9.]+$", f[7]):
                rows[(f[0], f[2], f[5])].setdefault(t, []).append(f[7])
    for k, v in rows.items(): print(kind, *k, "new", "/".join(v.get("new", [])), "old", "/".join(v.get("old", [])))
PY
R=build/new/tests/tasks/rcm/test_rcm_gpu
for f in MatchesSerialOnSmallGraphs/tasks_megakernel MatchesSerialOnSmallGraphs/tasks_timesliced; do
  for tool in memcheck synccheck racecheck; do
    [ $SECONDS -gt 470 ] && { echo "$tool $f not run (time)"; continue; }
    n=${f//\//_}
    APIARY_TEST_QUICK=1 timeout $((520 - SECONDS)) compute-sanitizer --tool $tool --error-exitcode 3 $R --gtest_filter="*RcmGpu.$f" > $OUT/j4_${tool}_$n.txt 2>&1; echo "$tool $f rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/j4_${tool}_$n.txt | tr '\n' ' ') at $SECONDS s"
  done
done
T=build/new/tests/tasks/jacobi/test_jacobi_gpu
for tool in memcheck synccheck racecheck; do
  [ $SECONDS -gt 520 ] && { echo "$tool jacobi not run (time)"; continue; }
  APIARY_TEST_QUICK=1 timeout $((580 - SECONDS)) compute-sanitizer --tool $tool --error-exitcode 3 $T --gtest_filter='*ChunksInsideAndOutsideTheSharedStageAgree/*megakernel*' > $OUT/j4_san_jacobi_$tool.txt 2>&1; echo "$tool jacobi rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/j4_san_jacobi_$tool.txt | tr '\n' ' ') at $SECONDS s"
done
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log $OUT/*.txt 2>/dev/null
(cd $OUT && tar -cf j4_logs.tar j4_* && find . -maxdepth 1 -name 'j4_*' ! -name j4_logs.tar -delete)
echo "all done at $SECONDS s"
