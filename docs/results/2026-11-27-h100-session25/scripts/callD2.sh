#!/usr/bin/env bash
# Session 25 D2: relaxed idle polls in the megakernel (new) against HEAD (old): Jacobi, RCM, SpTRSV.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
( JOBS=8 .run/setup3.sh "bench_jacobi bench_rcm bench_sptrsv" new ) &
( JOBS=8 .run/setup3.sh "bench_jacobi bench_rcm bench_sptrsv" old ) &
wait
echo "built at $SECONDS s"
S="--iterations 100 --reps 3 --nnz 1e4,1e5,1e6 --nnz-budget auto,512 --variants autonomous,stages-phases,stages-deps"
for t in old new old new; do timeout 120 build/$t/bench/bench_jacobi $S >> $OUT/jacobi_$t.log 2>&1; echo "== jacobi $t at $SECONDS s"; done
for t in old new; do grep -E "megakernel|graph " $OUT/jacobi_$t.log | awk '{print $2,$3,$6,$8}' | awk '{k=$1" "$2" "$3; a[k]=a[k]" "$4} END {for (k in a) print k":"a[k]}' | sort | sed "s/^/$t /"; done
for t in old new; do timeout 200 build/$t/bench/bench_rcm --no-shared --reps 3 > $OUT/rcm_$t.log 2>&1; echo "== rcm $t at $SECONDS s"; grep -E "tasks megakernel  " $OUT/rcm_$t.log | awk '{print $1, $(NF-6), $(NF-5), $(NF-4), $(NF-2), $(NF-1)}'; done
for t in old new; do timeout 150 build/$t/bench/bench_sptrsv --set quick --matrices .matrices --csv $OUT/sptrsv_$t.csv > $OUT/sptrsv_$t.log 2>&1; echo "== sptrsv $t rc $? at $SECONDS s"; grep -iE "geometric|faster on" $OUT/sptrsv_$t.log | head -6; done
sed -i "s#$PWD#.#g" $OUT/*.log
echo "all done at $SECONDS s"
