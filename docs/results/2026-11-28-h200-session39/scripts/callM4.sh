#!/usr/bin/env bash
# Session 39 M4: claims ahead. new = prepare hook v2 + two barriers fewer + claims ahead; newNA = new without claims
# ahead; newN = new without staged constants; newO = eb27d22 with only bench_jacobi --trace. Tests, traces, benches
# alternated, sanitizers.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
( JOBS=7 .run/setup3.sh "bench_jacobi test_runtime_gpu test_jacobi_gpu" new ) &
( JOBS=3 .run/setup3.sh "bench_jacobi" newNA ) &
( JOBS=3 .run/setup3.sh "bench_jacobi" newN ) &
( JOBS=3 .run/setup3.sh "bench_jacobi" newO ) &
wait
echo "built at $SECONDS s"
for t in runtime/test_runtime_gpu tasks/jacobi/test_jacobi_gpu; do
  n=$(basename $t)
  timeout 200 build/new/tests/$t > $OUT/m4_$n.log 2>&1; echo "$n rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]|SKIPPED \]' $OUT/m4_$n.log | head -8 | tr '\n' ' ') at $SECONDS s"
done
mkdir -p $OUT/traces
for t in new newO; do
  timeout 60 build/$t/bench/bench_jacobi --iterations 200 --reps 1 --nnz 1e4,1e5 --nnz-budget auto,512 --variants autonomous \
    --trace $OUT/traces/$t > $OUT/m4_trace_run_$t.log 2>&1; echo "trace run $t rc $? at $SECONDS s"
  python3 .run/trace_stats.py 20 $OUT/traces/$t-dd:526:11:27-a512-autonomous-megakernel.json
  python3 .run/trace_stats.py 99 $OUT/traces/$t-dd:5263:11:27-a1024-autonomous-megakernel.json
  python3 .run/trace_stats.py 199 $OUT/traces/$t-dd:5263:11:27-512-autonomous-megakernel.json
done 2>&1 | tee $OUT/m4_trace_stats.txt
for t in new newNA newN newO new newNA newN newO; do
  timeout 60 build/$t/bench/bench_jacobi --iterations 100 --reps 3 --nnz 1e4,1e5,1e6 --nnz-budget auto,512 \
    --variants autonomous >> $OUT/m4_small_$t.log 2>&1
done
echo "small benches at $SECONDS s"
for t in new newNA newN newO; do
  timeout 60 build/$t/bench/bench_jacobi --iterations 50 --reps 3 --nnz 1e7 --spec poisson3d:150 --variants autonomous \
    --nnz-budget auto >> $OUT/m4_10e7_$t.log 2>&1
done
python3 - "$OUT" <<'PY' | tee $OUT/m4_table.txt
import sys, re, collections
out = sys.argv[1]
trees = ("new", "newNA", "newN", "newO")
for kind in ("small", "10e7"):
    rows = collections.defaultdict(dict)
    for t in trees:
        for line in open(f"{out}/m4_{kind}_{t}.log"):
            f = line.split()
            if len(f) > 8 and f[5] in ("graph", "autonomous") and re.match(r"^[0-9.]+$", f[7]):
                rows[(f[0], f[2], f[5])].setdefault(t, []).append(f[7])
    for k, v in rows.items(): print(kind, *k, *("%s %s" % (t, "/".join(v.get(t, []))) for t in trees))
PY
T=build/new/tests/tasks/jacobi/test_jacobi_gpu
for tool in memcheck synccheck racecheck; do
  [ $SECONDS -gt 430 ] && { echo "$tool jacobi not run (time)"; continue; }
  APIARY_TEST_QUICK=1 timeout $((500 - SECONDS)) compute-sanitizer --tool $tool --error-exitcode 3 $T --gtest_filter='*ChunksInsideAndOutsideTheSharedStageAgree/*megakernel*:*RepeatedSolvesAndOtherVariantsGiveTheSameBits/*megakernel*' > $OUT/m4_san_jacobi_$tool.txt 2>&1; echo "$tool jacobi rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/m4_san_jacobi_$tool.txt | tr '\n' ' ') at $SECONDS s"
done
for tool in memcheck synccheck racecheck; do
  [ $SECONDS -gt 540 ] && { echo "$tool runtime not run (time)"; continue; }
  timeout $((585 - SECONDS)) compute-sanitizer --tool $tool --error-exitcode 3 build/new/tests/runtime/test_runtime_gpu --gtest_filter='*APreparedTask*/megakernel' > $OUT/m4_san_runtime_$tool.txt 2>&1; echo "$tool runtime rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/m4_san_runtime_$tool.txt | tr '\n' ' ') at $SECONDS s"
done
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log $OUT/*.txt 2>/dev/null
(cd $OUT && gzip -q traces/*.json; tar -cf m4_logs.tar m4_* traces && rm -rf traces && find . -maxdepth 1 -name 'm4_*' ! -name m4_logs.tar -delete)
echo "all done at $SECONDS s"
