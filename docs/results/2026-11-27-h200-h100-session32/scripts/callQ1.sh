#!/usr/bin/env bash
# Session 32 Q1 (prepared in session 31, not run yet): RCM's task types at 512 threads (+ no register cap)
# and 1024 threads, against main (old); the stand-alone probe said 256 -> 512 -> 1024 threads: 4.9 -> 4.4 -> 4.1 us a level.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
( JOBS=6 .run/setup3.sh "bench_rcm test_rcm_gpu" newK512 ) &
( JOBS=5 .run/setup3.sh "bench_rcm test_rcm_gpu" newK1024 ) &
( JOBS=5 .run/setup3.sh "bench_rcm" old ) &
wait
echo "built at $SECONDS s"
for t in old newK512 newK1024 old newK512 newK1024; do
  timeout 200 build/$t/bench/bench_rcm --no-shared --reps 3 >> $OUT/q1_rcm_$t.log 2>&1; echo "== rcm $t at $SECONDS s"
  grep -E "megakernel  " $OUT/q1_rcm_$t.log | tail -3 | cut -c1-20,90-200
done
for t in newK512 newK1024; do build/$t/tests/tasks/rcm/test_rcm_gpu > $OUT/q1_test_rcm_gpu_$t.log 2>&1; echo "test_rcm_gpu $t rc $? $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/q1_test_rcm_gpu_$t.log | tr '\n' ' ')"; done
sed -i "s#$PWD#.#g" $OUT/*.log
echo "all done at $SECONDS s"
