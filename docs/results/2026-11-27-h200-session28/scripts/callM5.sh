#!/usr/bin/env bash
# Session 28 M5: bench_sptrsv quick old (bafd81b) / new (HEAD, ranges of 2^13 after the candidates) /
# newV (2^16 there), alternated, four passes.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc
( JOBS=6 .run/setup3.sh bench_sptrsv new ) &
( JOBS=5 .run/setup3.sh bench_sptrsv newV ) &
( JOBS=5 .run/setup3.sh bench_sptrsv old ) &
wait
echo "built at $SECONDS s"
for p in 1 2 3 4; do for t in old new newV; do
  timeout 100 build/$t/bench/bench_sptrsv --set quick --matrices .matrices --csv /tmp/sptrsv_${t}_$p.csv > /tmp/s.log 2>&1; echo "sptrsv $t p$p rc $? at $SECONDS s: $(tail -2 /tmp/s.log | head -1)"
  [ $p = 1 ] && cp /tmp/s.log $OUT/sptrsv_$t.log
done; done
tar -czf $OUT/csv.tgz -C /tmp $(cd /tmp && ls sptrsv_*.csv)
sed -i "s#$PWD#.#g; s#/root/out#OUT#g" $OUT/*.log
echo "all done at $SECONDS s"
