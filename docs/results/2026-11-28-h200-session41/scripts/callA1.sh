#!/usr/bin/env bash
# Session 41 A1: SpTRSV with wider sub-graph tasks. old = HEAD (256 threads), T512, T1024, M3 (256 threads, 3 blocks/SM):
# bench_sptrsv quick set with the n_max sweep, each tree in turn.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
( JOBS=4 .run/setup3.sh "bench_sptrsv" new ) &
( JOBS=4 .run/setup3.sh "bench_sptrsv" newT512 ) &
( JOBS=4 .run/setup3.sh "bench_sptrsv" newT1024 ) &
( JOBS=4 .run/setup3.sh "bench_sptrsv" newM3 ) &
wait
echo "built at $SECONDS s"
for t in new newT512 newT1024 newM3; do
  timeout 150 build/$t/bench/bench_sptrsv --set quick --matrices .matrices --csv $OUT/a1_$t.csv --sweep $OUT/a1_sweep_$t.csv \
    > $OUT/a1_bench_$t.log 2>&1; echo "$t rc $? at $SECONDS s"; tail -8 $OUT/a1_bench_$t.log
done
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log 2>/dev/null
echo "all done at $SECONDS s"
