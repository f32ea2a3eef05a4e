#!/usr/bin/env bash
# Session 40 P1: update_rows_piped (chunks past the stage; all row tasks capped at 3 blocks/SM) against the session's
# start (old = 41efc09), and newB1 (one entry per lane per trip): GPU tests, benches alternated at 10^7 and 10^4-10^6.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
( JOBS=8 .run/setup3.sh "bench_jacobi test_jacobi_gpu" new ) &
( JOBS=4 .run/setup3.sh "bench_jacobi" old ) &
( JOBS=4 .run/setup3.sh "bench_jacobi" newB1 ) &
wait
echo "built at $SECONDS s"
timeout 150 build/new/tests/tasks/jacobi/test_jacobi_gpu > $OUT/p1_test_jacobi_gpu.log 2>&1; echo "jacobi rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $OUT/p1_test_jacobi_gpu.log | head -8 | tr '\n' ' ') at $SECONDS s"
for t in new old newB1 new old; do
  timeout 60 build/$t/bench/bench_jacobi --iterations 50 --reps 3 --nnz 1e7 --spec poisson3d:150 --variants autonomous,checkpoints \
    --nnz-budget auto >> $OUT/p1_10e7_$t.log 2>&1; echo "10e7 $t rc $? at $SECONDS s"
done
for t in new old new old; do
  timeout 60 build/$t/bench/bench_jacobi --iterations 100 --reps 3 --nnz 1e4,1e5,1e6 --nnz-budget auto,512 \
    --variants autonomous >> $OUT/p1_small_$t.log 2>&1; echo "small $t rc $? at $SECONDS s"
done
python3 - "$OUT" <<'PY' | tee $OUT/p1_table.txt
import sys, re, collections
out = sys.argv[1]
for kind, trees in (("10e7", ("new", "old", "newB1")), ("small", ("new", "old"))):
    rows = collections.defaultdict(dict)
    for t in trees:
        for line in open(f"{out}/p1_{kind}_{t}.log"):
            f = line.split()
            if len(f) > 8 and f[5] in ("graph", "autonomous", "checkpoints") and re.match(r"^[0-9.]+$", f[7]):
                rows[(f[0], f[2], f[5], f[6])].setdefault(t, []).append(f[7])
    for k, v in rows.items(): print(kind, *k, *("%s %s" % (t, "/".join(v.get(t, []))) for t in trees))
PY
head -30 $OUT/p1_10e7_new.log
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log $OUT/*.txt 2>/dev/null
echo "all done at $SECONDS s"
