#!/usr/bin/env bash
# Session 31 P10: RCM with expand_level (newX1) or Narrow::execute (newX2) out of line, against main (old).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
( JOBS=6 .run/setup3.sh "bench_rcm" newX1 ) &
( JOBS=5 .run/setup3.sh "bench_rcm" newX2 ) &
( JOBS=5 .run/setup3.sh "bench_rcm" old ) &
wait
echo "built at $SECONDS s"
for t in old newX1 newX2 old newX1 newX2; do
  timeout 200 build/$t/bench/bench_rcm --no-shared --reps 3 >> $OUT/p10_rcm_$t.log 2>&1; echo "== rcm $t at $SECONDS s"
  grep -E "megakernel  " $OUT/p10_rcm_$t.log | tail -3 | cut -c1-20,90-200
done
( bash .run/regs_rcm.sh newX1 > /tmp/r1.txt ) & ( bash .run/regs_rcm.sh newX2 > /tmp/r2.txt ) & wait; cat /tmp/r1.txt /tmp/r2.txt
sed -i "s#$PWD#.#g" $OUT/*.log
echo "all done at $SECONDS s"
