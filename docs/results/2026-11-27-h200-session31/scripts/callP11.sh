#!/usr/bin/env bash
# Session 31 P11: RCM with the Narrow task's BFS and Cuthill–McKee loops apart (new; expand_level<Bfs>),
# and the same without the megakernel's register cap (newMB1), against main (old); RCM tests on new.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
( JOBS=6 .run/setup3.sh "bench_rcm test_rcm_gpu test_rcm_host test_apps" new ) &
( JOBS=5 .run/setup3.sh "bench_rcm" newMB1 ) &
( JOBS=5 .run/setup3.sh "bench_rcm" old ) &
wait
echo "built at $SECONDS s"
for t in old new newMB1 old new newMB1; do
  timeout 200 build/$t/bench/bench_rcm --no-shared --reps 3 >> $OUT/p11_rcm_$t.log 2>&1; echo "== rcm $t at $SECONDS s"
  grep -E "megakernel  " $OUT/p11_rcm_$t.log | tail -3 | cut -c1-20,90-200
done
build/new/tests/tasks/rcm/test_rcm_gpu > $OUT/p11_test_rcm_gpu.log 2>&1; echo "test_rcm_gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/p11_test_rcm_gpu.log | tr '\n' ' ')"
build/new/tests/tasks/rcm/test_rcm_host > $OUT/p11_test_rcm_host.log 2>&1; echo "test_rcm_host rc $? $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/p11_test_rcm_host.log | tr '\n' ' ')"
build/new/tests/apps/test_apps > $OUT/p11_test_apps.log 2>&1; echo "test_apps rc $? $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/p11_test_apps.log | tr '\n' ' ')"
sed -i "s#$PWD#.#g" $OUT/*.log
echo "all done at $SECONDS s"
