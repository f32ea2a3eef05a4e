#!/usr/bin/env bash
# Session 25 D8: RCM, the hook compiled only for one-queue programs (new), and without the Continuation field (newF, experiment), against e11210a (old).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
( JOBS=6 .run/setup3.sh "bench_rcm" new ) &
( JOBS=5 .run/setup3.sh "bench_rcm" newF ) &
( JOBS=5 .run/setup3.sh "bench_rcm" old ) &
wait
echo "built at $SECONDS s"
bash .run/regs_rcm.sh new; bash .run/regs_rcm.sh newF
for t in old new newF old new newF; do timeout 200 build/$t/bench/bench_rcm --no-shared --reps 3 >> $OUT/rcm_$t.log 2>&1; echo "== rcm $t at $SECONDS s"; grep -E "tasks megakernel  " $OUT/rcm_$t.log | tail -3 | awk '{print $1, $(NF-6), $(NF-5), $(NF-4), $(NF-2), $(NF-1)}'; done
sed -i "s#$PWD#.#g" $OUT/*.log
echo "all done at $SECONDS s"
