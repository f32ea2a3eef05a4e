#!/usr/bin/env bash
# Session 24 K6 (learning only): why the Narrow BFS claim set was slow. B2: its stamps as weak stores; B3: the set, then the global exchange for its winners.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
( JOBS=6 .run/setup3.sh "bench_rcm" new ) &
( JOBS=5 .run/setup3.sh "bench_rcm" newB2 ) &
( JOBS=5 .run/setup3.sh "bench_rcm" newB3 ) &
wait
echo "built at $SECONDS s"
for t in new newB2 newB3; do
  timeout 100 build/$t/bench/bench_rcm --no-shared --reps 3 > $OUT/rcm_$t.log 2>&1
  echo "== rcm $t at $SECONDS s"; grep -E "tasks megakernel  " $OUT/rcm_$t.log | awk '{print $1, $(NF-6), $(NF-5), $(NF-4), $NF}'
done
sed -i "s#$PWD#.#g" $OUT/*.log
echo "all done at $SECONDS s"
