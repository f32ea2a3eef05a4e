#!/usr/bin/env bash
# Session 39 M6: direct claims (the autonomous row task's block claims its next position at the batch's end, under its fence)
# against old = 21e2282 (the landed two barriers): tests, traces, benches alternated three times, sanitizers.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
( JOBS=10 .run/setup3.sh "bench_jacobi test_jacobi_gpu test_runtime_gpu" new ) &
( JOBS=6 .run/setup3.sh "bench_jacobi" old ) &
wait
echo "built at $SECONDS s"
timeout 200 build/new/tests/tasks/jacobi/test_jacobi_gpu > $OUT/m6_test_jacobi_gpu.log 2>&1; echo "jacobi rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $OUT/m6_test_jacobi_gpu.log | head -8 | tr '\n' ' ') at $SECONDS s"
timeout 200 build/new/tests/runtime/test_runtime_gpu > $OUT/m6_test_runtime_gpu.log 2>&1; echo "runtime rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $OUT/m6_test_runtime_gpu.log | head -8 | tr '\n' ' ') at $SECONDS s"
grep -E "DirectClaims" $OUT/m6_test_runtime_gpu.log | grep -E "OK|FAILED" 
mkdir -p $OUT/traces
for t in new old; do
  timeout 60 build/$t/bench/bench_jacobi --iterations 200 --reps 1 --nnz 1e4,1e5 --nnz-budget auto,512 --variants autonomous \
    --trace $OUT/traces/$t > $OUT/m6_trace_run_$t.log 2>&1; echo "trace run $t rc $? at $SECONDS s"
  python3 bench/jacobi_trace_stats.py --tasks 20 $OUT/traces/$t-dd:526:11:27-a512-autonomous-megakernel.json
  python3 bench/jacobi_trace_stats.py --tasks 99 $OUT/traces/$t-dd:5263:11:27-a1024-autonomous-megakernel.json
  python3 bench/jacobi_trace_stats.py --tasks 199 $OUT/traces/$t-dd:5263:11:27-512-autonomous-megakernel.json
done 2>&1 | sed "s#$OUT/traces/##" | tee $OUT/m6_trace_stats.txt
for t in new old new old new old; do
  timeout 60 build/$t/bench/bench_jacobi --iterations 100 --reps 3 --nnz 1e4,1e5,1e6 --nnz-budget auto,512 \
    --variants autonomous >> $OUT/m6_small_$t.log 2>&1
done
echo "small benches at $SECONDS s"
for t in new old new old; do
  timeout 60 build/$t/bench/bench_jacobi --iterations 50 --reps 3 --nnz 1e7 --spec poisson3d:150 --variants autonomous \
    --nnz-budget auto >> $OUT/m6_10e7_$t.log 2>&1
done
python3 - "$OUT" <<'PY' | tee $OUT/m6_table.txt
import sys, re, collections
out = sys.argv[1]
trees = ("new", "old")
for kind in ("small", "10e7"):
    rows = collections.defaultdict(dict)
    for t in trees:
        for line in open(f"{out}/m6_{kind}_{t}.log"):
            f = line.split()
            if len(f) > 8 and f[5] in ("graph", "autonomous") and re.match(r"^[0-9.]+$", f[7]):
                rows[(f[0], f[2], f[5])].setdefault(t, []).append(f[7])
    for k, v in rows.items(): print(kind, *k, *("%s %s" % (t, "/".join(v.get(t, []))) for t in trees))
PY
T=build/new/tests/tasks/jacobi/test_jacobi_gpu
for tool in memcheck synccheck racecheck; do
  [ $SECONDS -gt 420 ] && { echo "$tool jacobi not run (time)"; continue; }
  APIARY_TEST_QUICK=1 timeout $((480 - SECONDS)) compute-sanitizer --tool $tool --error-exitcode 3 $T --gtest_filter='*ChunksInsideAndOutsideTheSharedStageAgree/*megakernel*:*RepeatedSolvesAndOtherVariantsGiveTheSameBits/*megakernel*' > $OUT/m6_san_jacobi_$tool.txt 2>&1; echo "$tool jacobi rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/m6_san_jacobi_$tool.txt | tr '\n' ' ') at $SECONDS s"
done
for tool in memcheck synccheck racecheck; do
  [ $SECONDS -gt 540 ] && { echo "$tool runtime not run (time)"; continue; }
  APIARY_TEST_QUICK=1 timeout $((585 - SECONDS)) compute-sanitizer --tool $tool --error-exitcode 3 build/new/tests/runtime/test_runtime_gpu --gtest_filter="$( [ $tool = racecheck ] && echo '*WavesRunEveryTaskOnceWithDirectClaims/megakernel' || echo '*DirectClaims*/megakernel' )" > $OUT/m6_san_runtime_$tool.txt 2>&1; echo "$tool runtime rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/m6_san_runtime_$tool.txt | tr '\n' ' ') at $SECONDS s"
done
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log $OUT/*.txt 2>/dev/null
(cd $OUT && gzip -q traces/*.json; tar -cf m6_logs.tar m6_* traces && rm -rf traces && find . -maxdepth 1 -name 'm6_*' ! -name m6_logs.tar -delete)
echo "all done at $SECONDS s"
