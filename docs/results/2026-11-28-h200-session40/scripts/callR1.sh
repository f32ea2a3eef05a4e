#!/usr/bin/env bash
# Session 40 R1: at 10^4-10^5, budgets up to 2048, the session's start (old) against newG8 (8 entries a thread at
# once in the staged update, every row task capped at 3 blocks/SM) and newC (the cap alone); 10^6-10^7 once.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
( JOBS=6 .run/setup3.sh "bench_jacobi test_jacobi_gpu" newG8 ) &
( JOBS=5 .run/setup3.sh "bench_jacobi" old ) &
( JOBS=5 .run/setup3.sh "bench_jacobi" newC ) &
wait
echo "built at $SECONDS s"
timeout 100 build/newG8/tests/tasks/jacobi/test_jacobi_gpu --gtest_filter='*ChunksInside*:*Repeated*' > $OUT/r1_test_jacobi_gpu.log 2>&1; echo "jacobi rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $OUT/r1_test_jacobi_gpu.log | head -8 | tr '\n' ' ') at $SECONDS s"
for t in old newG8 newC old newG8 newC old newG8; do
  timeout 60 build/$t/bench/bench_jacobi --iterations 100 --reps 3 --nnz 1e4,1e5 --nnz-budget auto,512,1536,2048 \
    --variants autonomous >> $OUT/r1_small_$t.log 2>&1; echo "small $t rc $? at $SECONDS s"
done
for t in old newG8; do
  timeout 60 build/$t/bench/bench_jacobi --iterations 50 --reps 3 --nnz 1e6,1e7 --variants autonomous \
    --nnz-budget auto >> $OUT/r1_large_$t.log 2>&1; echo "large $t rc $? at $SECONDS s"
done
python3 - "$OUT" <<'PY' | tee $OUT/r1_table.txt
import sys, re, collections
out = sys.argv[1]
for kind, trees in (("small", ("old", "newG8", "newC")), ("large", ("old", "newG8"))):
    rows = collections.defaultdict(dict)
    for t in trees:
        for line in open(f"{out}/r1_{kind}_{t}.log"):
            f = line.split()
            if len(f) > 8 and f[5] in ("graph", "autonomous") and re.match(r"^[0-9.]+$", f[7]):
                rows[(f[0], f[2], f[4], f[5])].setdefault(t, []).append(f[7])
    for k, v in rows.items(): print(kind, *k, *("%s %s" % (t, "/".join(v.get(t, []))) for t in trees))
PY
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log $OUT/*.txt 2>/dev/null
echo "all done at $SECONDS s"
