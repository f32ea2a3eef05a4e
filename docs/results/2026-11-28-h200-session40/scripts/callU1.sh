#!/usr/bin/env bash
# Session 40 U1: does the stage's shared memory (40 KB a block; L1 gets what is left) slow the chunks that do not use it?
# newS (stage of 1024 entries, 15 KB), newLPS (with one lane a row and update_rows<1>), newLP, against new, at 10^7.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
( JOBS=4 .run/setup3.sh "bench_jacobi" new ) &
( JOBS=4 .run/setup3.sh "bench_jacobi" newS ) &
( JOBS=4 .run/setup3.sh "bench_jacobi" newLP ) &
( JOBS=4 .run/setup3.sh "bench_jacobi" newLPS ) &
wait
echo "built at $SECONDS s"
for t in new newS newLP newLPS new newS newLP newLPS; do
  timeout 60 build/$t/bench/bench_jacobi --iterations 50 --reps 3 --nnz 1e7 --spec poisson3d:150 --variants autonomous,checkpoints \
    --nnz-budget auto >> $OUT/u1_10e7_$t.log 2>&1; echo "10e7 $t rc $? at $SECONDS s"
done
for t in new newS newLP newLPS; do
  timeout 60 build/$t/bench/bench_jacobi --iterations 50 --reps 3 --spec poisson3d:150 --variants autonomous,checkpoints \
    --nnz-budget 16384,32768 --row-budget 1024 >> $OUT/u1_10e7b_$t.log 2>&1; echo "10e7b $t rc $? at $SECONDS s"
done
python3 - "$OUT" <<'PY' | tee $OUT/u1_table.txt
import sys, re, collections
out = sys.argv[1]
for kind in ("10e7", "10e7b"):
    trees = ("new", "newS", "newLP", "newLPS")
    rows = collections.defaultdict(dict)
    for t in trees:
        for line in open(f"{out}/u1_{kind}_{t}.log"):
            f = line.split()
            if len(f) > 8 and f[5] in ("kernels", "graph", "autonomous", "checkpoints") and re.match(r"^[0-9.]+$", f[7]):
                rows[(f[0], f[2], f[4], f[5])].setdefault(t, []).append(f[7])
    for k, v in rows.items(): print(kind, *k, *("%s %s" % (t, "/".join(v.get(t, []))) for t in trees))
PY
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log $OUT/*.txt 2>/dev/null
echo "all done at $SECONDS s"
