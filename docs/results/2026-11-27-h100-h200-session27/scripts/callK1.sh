#!/usr/bin/env bash
# Session 27 K1: the shared visiting orders. bench_sptrsv quick, daa6506 (old) vs new, alternated, three passes;
# the host tests of the triangular solve on this 16-core host.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
( JOBS=11 .run/setup3.sh "bench_sptrsv test_sptrsv_host" new ) &
( JOBS=5 .run/setup3.sh bench_sptrsv old ) &
wait
echo "built at $SECONDS s"
build/new/tests/tasks/sptrsv/test_sptrsv_host > /tmp/h.log 2>&1; echo "sptrsv host rc $? $(grep -E '^\[  PASSED|^\[  FAILED' /tmp/h.log)"
for p in 1 2 3; do for t in old new; do
  timeout 100 build/$t/bench/bench_sptrsv --set quick --matrices .matrices --csv $OUT/sptrsv_${t}_$p.csv > /tmp/s.log 2>&1; echo "sptrsv $t p$p rc $? at $SECONDS s: $(tail -2 /tmp/s.log | head -1)"
  [ $p = 1 ] && cp /tmp/s.log $OUT/sptrsv_$t.log
done; done
sed -i "s#$PWD#.#g" $OUT/*
echo "all done at $SECONDS s"
