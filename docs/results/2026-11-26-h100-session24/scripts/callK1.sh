#!/usr/bin/env bash
# Session 24 K1: RCM experiments A (Rank L1 prefetch), B (BFS claims in shared memory), A+B against HEAD.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
( JOBS=6 .run/setup3.sh "bench_rcm test_rcm_gpu" new ) &
( JOBS=6 .run/setup3.sh "bench_rcm test_rcm_gpu" newAB ) &
( JOBS=4 .run/setup3.sh "bench_rcm" old ) &
( JOBS=4 .run/setup3.sh "bench_rcm" newa ) &
wait
echo "built at $SECONDS s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for t in new newAB; do
  f=$(find build/$t -name test_rcm_gpu -type f | head -1)
  timeout 300 $f > /tmp/t_$t.log 2>&1; echo "test_rcm_gpu $t rc $? $(grep -E '^\[  PASSED|^\[  FAILED' /tmp/t_$t.log | head -2 | tr '\n' ' ')"; grep -E "^\[  FAILED" /tmp/t_$t.log | head -5
done
echo "tests at $SECONDS s"
for pass in 1 2; do for t in old new newa newAB; do
  timeout 200 build/$t/bench/bench_rcm --no-shared --reps 3 --json $OUT/rcm_${t}_$pass.json >> $OUT/rcm_$t.log 2>&1
  echo "== rcm $t pass $pass at $SECONDS s"; grep -E "tasks megakernel  " $OUT/rcm_$t.log | tail -3 | awk '{print $1, $(NF-6), $(NF-5), $(NF-4), $(NF-3), $(NF-2), $(NF-1)}'
done; done
sed -i "s#$PWD#.#g" $OUT/*.log
echo "all done at $SECONDS s"
