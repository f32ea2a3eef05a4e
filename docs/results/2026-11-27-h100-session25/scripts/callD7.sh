#!/usr/bin/env bash
# Session 25 D7: RCM, the tree with the before-wait hook in every program (new, 12dee61) against e11210a (old), alternated.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
( JOBS=8 .run/setup3.sh "bench_rcm" new ) &
( JOBS=8 .run/setup3.sh "bench_rcm" old ) &
wait
echo "built at $SECONDS s"
bash .run/regs_rcm.sh new; bash .run/regs_rcm.sh old
for t in old new old new; do timeout 200 build/$t/bench/bench_rcm --no-shared --reps 3 >> $OUT/rcm_$t.log 2>&1; echo "== rcm $t at $SECONDS s"; grep -E "tasks megakernel  " $OUT/rcm_$t.log | tail -3 | awk '{print $1, $(NF-6), $(NF-5), $(NF-4), $(NF-2), $(NF-1)}'; done
sed -i "s#$PWD#.#g" $OUT/*.log
echo "all done at $SECONDS s"
