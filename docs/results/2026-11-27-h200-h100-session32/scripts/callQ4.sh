#!/usr/bin/env bash
# Session 32 Q4: racecheck of the TASSL solver tests not yet run under it (tassl_phases, tassl_kernels), one test per
# sanitizer run so each finished one counts; APIARY_TEST_QUICK=1 as in session 30's O9/O10.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
JOBS=16 .run/setup3.sh "test_sptrsv_gpu" new
echo "built at $SECONDS s"
B=build/new/tests/tasks/sptrsv/test_sptrsv_gpu
$B --gtest_list_tests | awk '/^[^ ]/{s=$1} /^  /{print s $1}' | grep -E "tassl_phases|tassl_kernels" > /tmp/list.txt; cat /tmp/list.txt
while read t; do
  [ $SECONDS -gt 470 ] && { echo "stopped before $t (time)"; continue; }
  APIARY_TEST_QUICK=1 timeout $((520 - SECONDS)) compute-sanitizer --tool racecheck --error-exitcode 3 $B --gtest_filter="$t" > /tmp/r.txt 2>&1
  echo "racecheck $t rc $? $(grep -E "RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED" /tmp/r.txt | tr '\n' ' ') at $SECONDS s" | tee -a $OUT/q4_racecheck_sptrsv.txt
done < /tmp/list.txt
echo "all done at $SECONDS s"
