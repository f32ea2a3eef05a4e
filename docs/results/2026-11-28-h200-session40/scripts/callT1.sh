#!/usr/bin/env bash
# Session 40 T1: chunks past the stage through update_rows<1> (newP), with a quarter-mean lanes floor (newLP), newL,
# against the final tree (new), Poisson 3D and dd 10^7.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
( JOBS=4 .run/setup3.sh "bench_jacobi" new ) &
( JOBS=4 .run/setup3.sh "bench_jacobi" newL ) &
( JOBS=4 .run/setup3.sh "bench_jacobi" newP ) &
( JOBS=4 .run/setup3.sh "bench_jacobi" newLP ) &
wait
echo "built at $SECONDS s"
for t in new newP newLP newL new newP newLP; do
  timeout 60 build/$t/bench/bench_jacobi --iterations 50 --reps 3 --nnz 1e7 --spec poisson3d:150 --variants autonomous,checkpoints \
    --nnz-budget auto,16384 >> $OUT/t1_10e7_$t.log 2>&1; echo "10e7 $t rc $? at $SECONDS s"
done
python3 - "$OUT" <<'PY' | tee $OUT/t1_table.txt
import sys, re, collections
out = sys.argv[1]
for kind, trees in (("10e7", ("new", "newP", "newLP", "newL")),):
    rows = collections.defaultdict(dict)
    for t in trees:
        for line in open(f"{out}/t1_{kind}_{t}.log"):
            f = line.split()
            if len(f) > 8 and f[5] in ("kernels", "graph", "autonomous", "checkpoints") and re.match(r"^[0-9.]+$", f[7]):
                rows[(f[0], f[2], f[4], f[5])].setdefault(t, []).append(f[7])
    for k, v in rows.items(): print(kind, *k, *("%s %s" % (t, "/".join(v.get(t, []))) for t in trees))
PY
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log $OUT/*.txt 2>/dev/null
echo "all done at $SECONDS s"
