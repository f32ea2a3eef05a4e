#!/usr/bin/env bash
# Session 40 W1: the landed tree (new) at 10^4-10^5 with --blocks-per-sm 0 (auto: 1 at these sizes), 2 and 3,
# alternated three times; traces at 10^5 for auto and 2.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
( JOBS=16 .run/setup3.sh "bench_jacobi" new )
echo "built at $SECONDS s"
for pass in 1 2 3; do
  for b in 0 2 3; do
    timeout 60 build/new/bench/bench_jacobi --iterations 100 --reps 3 --nnz 1e4,1e5 --nnz-budget auto,512 --variants autonomous \
      --blocks-per-sm $b >> $OUT/w1_small_bps$b.log 2>&1; echo "bps $b pass $pass rc $? at $SECONDS s"
  done
done
mkdir -p $OUT/traces
for b in 0 2; do
  timeout 60 build/new/bench/bench_jacobi --iterations 200 --reps 1 --nnz 1e5 --nnz-budget auto --variants autonomous \
    --blocks-per-sm $b --trace $OUT/traces/bps$b > $OUT/w1_trace_run_bps$b.log 2>&1; echo "trace bps $b rc $?"
  python3 bench/jacobi_trace_stats.py --tasks 99 $OUT/traces/bps$b-dd:5263:11:27-a1024-autonomous-megakernel.json
done 2>&1 | sed "s#$OUT/traces/##" | tee $OUT/w1_trace_stats.txt
python3 - "$OUT" <<'PY' | tee $OUT/w1_table.txt
import sys, re, collections
out = sys.argv[1]
trees = ("bps0", "bps2", "bps3")
rows = collections.defaultdict(dict)
for t in trees:
    for line in open(f"{out}/w1_small_{t}.log"):
        f = line.split()
        if len(f) > 8 and f[5] in ("graph", "autonomous") and re.match(r"^[0-9.]+$", f[7]):
            rows[(f[0], f[2], f[4], f[5])].setdefault(t, []).append(f[7])
for k, v in rows.items(): print(*k, *("%s %s" % (t, "/".join(v.get(t, []))) for t in trees))
PY
(cd $OUT && gzip -q traces/*.json; tar -cf w1_traces.tar traces && rm -rf traces)
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log $OUT/*.txt 2>/dev/null
echo "all done at $SECONDS s"
