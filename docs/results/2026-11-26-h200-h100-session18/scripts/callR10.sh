#!/usr/bin/env bash
# The watchdog clock starts in prepare_run, live_blocks with the progress stamp (new) vs 8a14f09 (old).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=8 .run/setup3.sh "bench_runtime bench_sptrsv" old & JOBS=8 .run/setup3.sh "bench_runtime bench_sptrsv test_runtime_gpu test_watchdog" new & wait
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
APIARY_TEST_QUICK=1 build/new/tests/runtime/test_runtime_gpu > /tmp/tr.log 2>&1; echo "runtime quick rc $? $(tail -1 /tmp/tr.log)"
build/new/tests/runtime/test_watchdog > /tmp/tw.log 2>&1; echo "watchdog rc $? $(tail -1 /tmp/tw.log)"
for t in old new old new old new; do echo "== runtime $t"; build/$t/bench/bench_runtime --reps 5 --scheduler megakernel 2>&1 | tee -a $OUT/runtime_$t.log | grep megakernel | awk -F'  +' '{print $3}' | tr '\n' ';'; echo; done
for t in old new; do echo "== sptrsv $t"; build/$t/bench/bench_sptrsv --set quick --matrices .matrices --reps 5 --csv /tmp/sptrsv_$t.csv > $OUT/sptrsv_$t.log 2>&1; echo "rc $?"; grep -iE "geometric" $OUT/sptrsv_$t.log | head -3; done
sed -i "s#$PWD#.#g" $OUT/*.log
echo "all done at $SECONDS s"
