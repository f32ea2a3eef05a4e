#!/usr/bin/env bash
# Session 40 X1: SASS of an acquire-load poll against a relaxed poll + acquire fence; newR (await_claim's pollers
# relaxed) against new (landed) at 10^4-10^5 with 1 and 2 blocks per SM, and at 10^7.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
( nvcc -arch=sm_90 -cubin -o /tmp/acq.cubin .run/acq_probe.cu && cuobjdump -sass /tmp/acq.cubin | grep -E "Function|LDG|LD\.|CCTL|FENCE|MEMBAR|NANOSLEEP|ERRBAR" > $OUT/x1_sass.txt 2>&1 ) &
( JOBS=8 .run/setup3.sh "bench_jacobi" new ) &
( JOBS=8 .run/setup3.sh "bench_jacobi" newR ) &
wait
cat $OUT/x1_sass.txt
echo "built at $SECONDS s"
for pass in 1 2; do
  for t in new newR; do
    for b in 0 2; do
      timeout 60 build/$t/bench/bench_jacobi --iterations 100 --reps 3 --nnz 1e4,1e5 --nnz-budget auto,512 --variants autonomous \
        --blocks-per-sm $b >> $OUT/x1_small_${t}_bps$b.log 2>&1; echo "$t bps $b pass $pass rc $? at $SECONDS s"
    done
  done
done
for t in new newR new newR; do
  timeout 60 build/$t/bench/bench_jacobi --iterations 50 --reps 3 --nnz 1e7 --spec poisson3d:150 --variants autonomous \
    --nnz-budget auto >> $OUT/x1_10e7_$t.log 2>&1; echo "10e7 $t rc $? at $SECONDS s"
done
python3 - "$OUT" <<'PY' | tee $OUT/x1_table.txt
import sys, re, collections
out = sys.argv[1]
for kind, trees in (("small", ("new_bps0", "newR_bps0", "new_bps2", "newR_bps2")), ("10e7", ("new", "newR"))):
    rows = collections.defaultdict(dict)
    for t in trees:
        for line in open(f"{out}/x1_{kind}_{t}.log"):
            f = line.split()
            if len(f) > 8 and f[5] in ("graph", "autonomous") and re.match(r"^[0-9.]+$", f[7]):
                rows[(f[0], f[2], f[4], f[5])].setdefault(t, []).append(f[7])
    for k, v in rows.items(): print(kind, *k, *("%s %s" % (t, "/".join(v.get(t, []))) for t in trees))
PY
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log $OUT/*.txt 2>/dev/null
echo "all done at $SECONDS s"
