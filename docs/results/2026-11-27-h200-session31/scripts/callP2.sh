#!/usr/bin/env bash
# Session 31 P2: RCM and Jacobi with the megakernel's register cap lifted (newMB1) against main (new).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
( JOBS=8 .run/setup3.sh "bench_rcm bench_jacobi" new ) &
( JOBS=8 .run/setup3.sh "bench_rcm bench_jacobi" newMB1 ) &
wait
echo "built at $SECONDS s"
for t in new newMB1 new newMB1; do
  timeout 200 build/$t/bench/bench_rcm --no-shared --reps 3 >> $OUT/p2_rcm_$t.log 2>&1; echo "== rcm $t at $SECONDS s"
  grep -E "tasks megakernel" $OUT/p2_rcm_$t.log | tail -4
done
for t in new newMB1 new newMB1; do
  timeout 200 build/$t/bench/bench_jacobi --iterations 100 --reps 3 --nnz 1e4,1e5,1e6 --nnz-budget auto,512 --variants autonomous >> $OUT/p2_jacobi_$t.log 2>&1; echo "== jacobi $t at $SECONDS s"
  grep -E "autonomous|graph" $OUT/p2_jacobi_$t.log | tail -12
done
bash .run/regs_rcm.sh new; bash .run/regs_rcm.sh newMB1
sed -i "s#$PWD#.#g" $OUT/*.log
echo "all done at $SECONDS s"
