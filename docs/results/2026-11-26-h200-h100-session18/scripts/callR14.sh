#!/usr/bin/env bash
# The megakernel's last block writes the run state back (new) vs HEAD (old): tests, memcheck, bench_runtime, SpTRSV.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=6 .run/setup3.sh "bench_runtime bench_sptrsv" old & JOBS=10 .run/setup3.sh "bench_runtime bench_sptrsv test_runtime_gpu test_watchdog test_generic_gpu test_jacobi_gpu test_sptrsv_gpu" new & wait
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
build/new/tests/runtime/test_runtime_gpu > /tmp/t1.log 2>&1; echo "runtime full rc $? $(tail -1 /tmp/t1.log)"
build/new/tests/runtime/test_watchdog > /tmp/t2.log 2>&1; echo "watchdog rc $? $(tail -1 /tmp/t2.log)"
build/new/tests/tasks/generic/test_generic_gpu > /tmp/t3.log 2>&1; echo "generic rc $? $(tail -1 /tmp/t3.log)"
APIARY_TEST_QUICK=1 build/new/tests/tasks/jacobi/test_jacobi_gpu > /tmp/t4.log 2>&1; echo "jacobi quick rc $? $(tail -1 /tmp/t4.log)"
APIARY_TEST_QUICK=1 build/new/tests/tasks/sptrsv/test_sptrsv_gpu > /tmp/t5.log 2>&1; echo "sptrsv quick rc $? $(tail -1 /tmp/t5.log)"
cat /tmp/t1.log /tmp/t2.log /tmp/t3.log /tmp/t4.log /tmp/t5.log | grep -E "FAILED|PASSED|SKIPPED" > $OUT/r14_tests.txt
for tool in memcheck synccheck; do
  APIARY_TEST_QUICK=1 compute-sanitizer --tool $tool --error-exitcode 3 build/new/tests/runtime/test_runtime_gpu --gtest_filter='*DeepQueue*:*EveryItemExactlyOnce*:*Overflow*:*Seed*:*Waiting*' > /tmp/san.log 2>&1
  echo "$tool runtime rc $? $(grep -E 'ERROR SUMMARY|PASSED|FAILED' /tmp/san.log | tail -3 | tr '\n' ' ')"
done 2>&1 | tee $OUT/r14_sanitizers.txt
echo "tests done at $SECONDS s"
for t in old new old new; do echo "== runtime $t"; build/$t/bench/bench_runtime --reps 5 2>&1 | tee -a $OUT/r14_runtime_$t.log | grep -E "megakernel|timesliced" | awk -F'  +' '{print $3}' | tr '\n' ';'; echo; done
for t in old new; do echo "== sptrsv $t"; build/$t/bench/bench_sptrsv --set quick --matrices .matrices --reps 5 --csv /tmp/sptrsv_$t.csv > $OUT/r14_sptrsv_$t.log 2>&1; grep -iE "geometric" $OUT/r14_sptrsv_$t.log | head -2; done
sed -i "s#$PWD#.#g" $OUT/*.log $OUT/*.txt
echo "all done at $SECONDS s"
