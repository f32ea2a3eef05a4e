#!/usr/bin/env bash
# Session 32 Q5: racecheck of test_runtime_gpu (APIARY_TEST_QUICK=1), one test suite per sanitizer run, as many as
# fit the machine's remaining time; the deliberate failed-copy test excluded (it reports its intended API errors).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
JOBS=16 .run/setup3.sh "test_runtime_gpu" new
echo "built at $SECONDS s"
B=$(find build/new/tests -name test_runtime_gpu -type f | head -1)
$B --gtest_list_tests | awk '/^[^ ]/{print $1}' | sort -u > /tmp/suites.txt; cat /tmp/suites.txt | tr '\n' ' '; echo
while read s; do
  [ $SECONDS -gt 300 ] && { echo "not run (time): $s" | tee -a $OUT/q5_racecheck_runtime.txt; continue; }
  APIARY_TEST_QUICK=1 timeout $((330 - SECONDS)) compute-sanitizer --tool racecheck --error-exitcode 3 $B --gtest_filter="${s}*-HostUpload.FailedCopyThrowsAndReturns" > /tmp/r.txt 2>&1
  echo "racecheck $s rc $? $(grep -E "RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED" /tmp/r.txt | tr '\n' ' ') at $SECONDS s" | tee -a $OUT/q5_racecheck_runtime.txt
done < /tmp/suites.txt
echo "all done at $SECONDS s"
