#!/usr/bin/env bash
# Session 32 Q8: on an H100, the tree with RCM's task types at 512 threads (new) vs 0af9387 (old), alternated; new's RCM GPU tests.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
( JOBS=10 .run/setup3.sh "bench_rcm test_rcm_gpu" new ) &
( JOBS=6 .run/setup3.sh "bench_rcm" old ) &
wait
echo "built at $SECONDS s"
for t in old new old new; do
  [ $SECONDS -gt 420 ] && { echo "stopped before $t (time)"; break; }
  timeout 150 build/$t/bench/bench_rcm --no-shared --reps 3 >> $OUT/q8_rcm_$t.log 2>&1; echo "== rcm $t at $SECONDS s"
  grep -E "megakernel  |timesliced  " $OUT/q8_rcm_$t.log | tail -6 | cut -c1-20,90-200
done
timeout 60 build/new/tests/tasks/rcm/test_rcm_gpu > $OUT/q8_test_rcm_gpu.log 2>&1; echo "test_rcm_gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/q8_test_rcm_gpu.log | tr '\n' ' ')"
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log
echo "all done at $SECONDS s"
