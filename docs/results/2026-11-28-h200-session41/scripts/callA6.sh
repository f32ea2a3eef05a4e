#!/usr/bin/env bash
# Session 41 A6: PCG's host loop, whose IC(0) solves are tassl-deps on the analysis's plan: new (task width chosen)
# against old (9af6cde), natural order, Poisson 2D/3D quick sizes.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p $OUT/a6
( JOBS=8 .run/setup3.sh "bench_pcg" new ) &
( JOBS=8 .run/setup3.sh "bench_pcg" old ) &
wait
echo "built at $SECONDS s"
for t in new old new old; do
  timeout 25 build/$t/bench/bench_pcg --quick --precond ic0 --loop host --order natural >> $OUT/a6/pcg_host_$t.log 2>&1; echo "pcg $t rc $? at $SECONDS s"
  grep -E "^natural +ic0 " $OUT/a6/pcg_host_$t.log | tail -2
done
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g; s#$OUT#\$OUT#g" $OUT/a6/* 2>/dev/null
tar -czf $OUT/a6.tar.gz -C $OUT a6 && rm -rf $OUT/a6
echo "all done at $SECONDS s"
