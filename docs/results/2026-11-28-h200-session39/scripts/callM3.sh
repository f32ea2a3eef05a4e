#!/usr/bin/env bash
# Session 39 M3: where an autonomous iteration's time goes (traces), for new (the prepare hook v2 + two barriers fewer),
# newN (new without staged constants) and newO (eb27d22 with only bench_jacobi --trace); runtime tests + sanitizers.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
( JOBS=8 .run/setup3.sh "bench_jacobi test_runtime_gpu" new ) &
( JOBS=4 .run/setup3.sh "bench_jacobi" newO ) &
( JOBS=4 .run/setup3.sh "bench_jacobi" newN ) &
wait
echo "built at $SECONDS s"
timeout 200 build/new/tests/runtime/test_runtime_gpu > $OUT/m3_test_runtime_gpu.log 2>&1; echo "runtime rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $OUT/m3_test_runtime_gpu.log | head -8 | tr '\n' ' ') at $SECONDS s"
mkdir -p $OUT/traces
for t in new newN newO; do
  timeout 60 build/$t/bench/bench_jacobi --iterations 200 --reps 1 --nnz 1e4,1e5 --nnz-budget auto,512 --variants autonomous \
    --trace $OUT/traces/$t > $OUT/m3_trace_run_$t.log 2>&1; echo "trace run $t rc $? at $SECONDS s"
done
for t in new newN newO; do
  python3 .run/trace_stats.py 20 $OUT/traces/$t-dd:526:11:27-a512-autonomous-megakernel.json
  python3 .run/trace_stats.py 99 $OUT/traces/$t-dd:5263:11:27-a1024-autonomous-megakernel.json
  python3 .run/trace_stats.py 199 $OUT/traces/$t-dd:5263:11:27-512-autonomous-megakernel.json
done 2>&1 | tee $OUT/m3_trace_stats.txt
for t in new newN newO new newN newO; do
  timeout 60 build/$t/bench/bench_jacobi --iterations 100 --reps 3 --nnz 1e4,1e5 --nnz-budget auto,512 \
    --variants autonomous >> $OUT/m3_small_$t.log 2>&1
done
python3 - "$OUT" <<'PY' | tee $OUT/m3_table.txt
import sys, re, collections
out = sys.argv[1]
rows = collections.defaultdict(dict)
for t in ("new", "newN", "newO"):
    for line in open(f"{out}/m3_small_{t}.log"):
        f = line.split()
        if len(f) > 8 and f[5] in ("graph", "autonomous") and re.match(r"^[0-9.]+$", f[7]):
            rows[(f[0], f[2], f[5])].setdefault(t, []).append(f[7])
for k, v in rows.items(): print(*k, *("%s %s" % (t, "/".join(v.get(t, []))) for t in ("new", "newN", "newO")))
PY
for tool in memcheck synccheck racecheck; do
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 3 build/new/tests/runtime/test_runtime_gpu --gtest_filter='*APreparedTask*' > $OUT/m3_san_runtime_$tool.txt 2>&1; echo "$tool runtime rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/m3_san_runtime_$tool.txt | tr '\n' ' ') at $SECONDS s"
done
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log $OUT/*.txt 2>/dev/null
(cd $OUT && gzip -q traces/*.json; tar -cf m3_logs.tar m3_* traces && rm -rf traces && find . -maxdepth 1 -name 'm3_*' ! -name m3_logs.tar -delete)
echo "all done at $SECONDS s"
