#!/usr/bin/env bash
# Session 38 K1: RCM with Narrow's abort flag (new) against the session's start (old): bench_rcm, alternated twice.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
( JOBS=8 .run/setup3.sh "bench_rcm" new ) &
( JOBS=8 .run/setup3.sh "bench_rcm" old ) &
wait
echo "built at $SECONDS s"
for t in new old new old; do
  timeout 90 build/$t/bench/bench_rcm --no-shared --inputs poisson2d,poisson3d --methods "tasks megakernel,tasks timesliced" --reps 5 >> $OUT/k1_bench_$t.log 2>&1
  echo "== $t rc $? at $SECONDS s"; grep -E "tasks" $OUT/k1_bench_$t.log | tail -4 | cut -c1-200
done
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log 2>/dev/null
(cd $OUT && tar -cf k1_logs.tar k1_* && find . -maxdepth 1 -name 'k1_*' ! -name k1_logs.tar -delete)
echo "all done at $SECONDS s"
