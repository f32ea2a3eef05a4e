#!/usr/bin/env bash
# Session 28 M9: the last refactor (one loop over external sources) against a035e14: bench_sptrsv quick, alternated, two passes.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
( JOBS=8 .run/setup3.sh bench_sptrsv new ) &
( JOBS=8 .run/setup3.sh bench_sptrsv old ) &
wait
echo "built at $SECONDS s"
for p in 1 2; do for t in old new; do
  timeout 60 build/$t/bench/bench_sptrsv --set quick --matrices .matrices --csv $OUT/sptrsv_${t}_$p.csv > /tmp/s.log 2>&1; echo "sptrsv $t p$p rc $? at $SECONDS s: $(tail -2 /tmp/s.log | head -1)"
done; done
echo "all done at $SECONDS s"
