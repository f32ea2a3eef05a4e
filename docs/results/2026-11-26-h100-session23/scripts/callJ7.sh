#!/usr/bin/env bash
# Session 23 J7: --nnz-budget auto against a budget sweep in the same process; the Jacobi CLI tests.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=16 .run/setup3.sh "bench_jacobi test_jacobi_cli apiary test_jacobi_host" new
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for t in test_jacobi_cli test_jacobi_host; do f=$(find build/new -name $t -type f | head -1); timeout 300 $f > /tmp/$t.log 2>&1; echo "$t rc $? $(grep -E '^\[  PASSED|^\[  FAILED' /tmp/$t.log | head -2 | tr '\n' ' ')"; grep -E "^\[  FAILED" /tmp/$t.log | head; done
build/new/apps/apiary jacobi dd:526316:11:27 --nnz-budget auto --variant autonomous,graph --reps 3 --tol 1e-9 --max-iter 200 > $OUT/cli_auto_1e7.log 2>&1; echo "cli rc $?"; grep -E "tasks|autonomous|graph" $OUT/cli_auto_1e7.log | head -4
B="--iterations 50 --reps 3 --nnz 1e4,1e5,1e6,1e7 --spec poisson3d:150 --variants autonomous"
timeout 400 build/new/bench/bench_jacobi $B --nnz-budget auto,512,1024,4096,16384,32768,65536 --row-budget 16384 --json $OUT/sweep.json > $OUT/sweep.log 2>&1; echo "sweep rc $? at $SECONDS s"
timeout 200 build/new/bench/bench_jacobi $B --nnz-budget auto --json $OUT/auto.json > $OUT/auto.log 2>&1; echo "auto rc $? at $SECONDS s"
grep -E "autonomous" $OUT/auto.log | awk '{print $1, $3, $4, $5, $8}'
python3 - $OUT/sweep.json $OUT/auto.json <<'PY'
import json,sys
sw=json.load(open(sys.argv[1]))['rows']; au=json.load(open(sys.argv[2]))['rows']
for m in dict.fromkeys(r['matrix'] for r in sw):
  a=[r for r in sw if r['matrix']==m and r['variant']=='autonomous']
  best=min(a,key=lambda r:r['ms_per_iteration'])
  g=min((r for r in sw if r['matrix']==m and r['variant']=='graph'),key=lambda r:r['ms_per_iteration'])
  au1=[r for r in au if r['matrix']==m and r['variant']=='autonomous'][0]
  print(f"{m:20s} best {best['nnz_budget']:>6}/{best['row_budget']:<6} {best['ms_per_iteration']*1e3:8.2f} us | auto {au1['nnz_budget']:>6}/{au1['row_budget']:<6} {au1['ms_per_iteration']*1e3:8.2f} us ({best['ms_per_iteration']/au1['ms_per_iteration']:.2f} of best) | graph best {g['ms_per_iteration']*1e3:8.2f} us")
PY
sed -i "s#$PWD#.#g" $OUT/*.log
echo "all done at $SECONDS s"
