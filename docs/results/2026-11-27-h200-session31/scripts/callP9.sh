#!/usr/bin/env bash
# Session 31 P9: RCM with the BFS claims fixed at compile time (new) and + no register cap (newMB1), against main (old).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
( JOBS=6 .run/setup3.sh "bench_rcm test_rcm_gpu test_rcm_host" new ) &
( JOBS=5 .run/setup3.sh "bench_rcm" newMB1 ) &
( JOBS=5 .run/setup3.sh "bench_rcm" old ) &
wait
echo "built at $SECONDS s"
for t in old new newMB1 old new newMB1; do
  timeout 200 build/$t/bench/bench_rcm --no-shared --reps 3 >> $OUT/p9_rcm_$t.log 2>&1; echo "== rcm $t at $SECONDS s"
  grep -E "megakernel  " $OUT/p9_rcm_$t.log | tail -3 | cut -c1-20,90-200
done
build/new/tests/tasks/rcm/test_rcm_gpu > $OUT/p9_test_rcm_gpu.log 2>&1; echo "test_rcm_gpu rc $?"; tail -3 $OUT/p9_test_rcm_gpu.log
build/new/tests/tasks/rcm/test_rcm_host > $OUT/p9_test_rcm_host.log 2>&1; echo "test_rcm_host rc $?"; tail -3 $OUT/p9_test_rcm_host.log
bash .run/regs_rcm.sh old; bash .run/regs_rcm.sh new; bash .run/regs_rcm.sh newMB1
sed -i "s#$PWD#.#g" $OUT/*.log
echo "all done at $SECONDS s"
