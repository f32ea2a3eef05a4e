#!/usr/bin/env bash
# Session 23 J9: SpTRSV set-up with staged uploads: bench_sptrsv --set quick (generated matrices only), 027bc02 (old) vs e4c7f58 (new).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=8 .run/setup3.sh "bench_sptrsv" old new
echo "built at $SECONDS s"
for t in old new; do timeout 250 build/$t/bench/bench_sptrsv --set quick --csv $OUT/sptrsv_$t.csv > $OUT/sptrsv_$t.log 2>&1; echo "$t rc $? at $SECONDS s"; done
python3 - $OUT/sptrsv_old.csv $OUT/sptrsv_new.csv <<'PY'
import csv,sys
def load(p):
  rows=list(csv.DictReader(open(p)))
  out={}
  for r in rows:
    if r['variant'] in ('tassl-deps','cusparse'): out[(r['matrix'],r['variant'])]=r
  return out
o,n=load(sys.argv[1]),load(sys.argv[2])
for (m,v),r in n.items():
  if v!='tassl-deps': continue
  c=n[(m,'cusparse')]; co=o[(m,'cusparse')]; ro=o[(m,v)]
  f=lambda r,c: (float(r['analysis_ms'])+float(r['setup_ms']))/float(c['setup_ms'])
  print(f"{m:22s} setup {float(ro['setup_ms']):8.2f} -> {float(r['setup_ms']):8.2f} ms  analysis {float(ro['analysis_ms']):8.1f} -> {float(r['analysis_ms']):8.1f}  (analysis+setup)/cuSPARSE analysis {f(ro,co):5.1f} -> {f(r,c):5.1f}")
PY
sed -i "s#$PWD#.#g" $OUT/*.log
echo "all done at $SECONDS s"
