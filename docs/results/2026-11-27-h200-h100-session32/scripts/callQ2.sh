#!/usr/bin/env bash
# Session 32 Q2: RCM at 512 threads with the min_blocks rule "two blocks only up to 256 threads" (K512b) against main (old),
# alternated; then the set-up's steps timed (S, diagnostic tree on main).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
( JOBS=6 .run/setup3.sh "bench_rcm test_rcm_gpu" newK512b ) &
( JOBS=5 .run/setup3.sh "bench_rcm" newS ) &
( JOBS=5 .run/setup3.sh "bench_rcm" old ) &
wait
echo "built at $SECONDS s"
for t in old newK512b old newK512b; do
  timeout 200 build/$t/bench/bench_rcm --no-shared --reps 3 >> $OUT/q2_rcm_$t.log 2>&1; echo "== rcm $t at $SECONDS s"
  grep -E "megakernel  |timesliced  " $OUT/q2_rcm_$t.log | tail -6 | cut -c1-20,90-200
done
timeout 200 build/newS/bench/bench_rcm --no-shared --reps 3 > $OUT/q2_rcm_S.log 2>&1; echo "== rcm S at $SECONDS s"
grep -E "^S cols" $OUT/q2_rcm_S.log | head -30; grep -E "^S " $OUT/q2_rcm_S.log | grep -v cols | tail -20
build/newK512b/tests/tasks/rcm/test_rcm_gpu > $OUT/q2_test_rcm_gpu_K512b.log 2>&1; echo "test_rcm_gpu K512b rc $? $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/q2_test_rcm_gpu_K512b.log | tr '\n' ' ')"
sed -i "s#$PWD#.#g" $OUT/*.log
echo "all done at $SECONDS s"
