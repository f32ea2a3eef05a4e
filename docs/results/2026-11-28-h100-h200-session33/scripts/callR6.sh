#!/usr/bin/env bash
# Session 33 R6: racecheck of the triangular-solve variants not run under it before: levelset (both schedulers)
# and the sync-free baseline; one test per sanitizer run, APIARY_TEST_QUICK=1 as in session 32's Q4.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
JOBS=16 .run/setup3.sh "test_sptrsv_gpu test_baselines_gpu" new
echo "built at $SECONDS s"
B=build/new/tests/tasks/sptrsv/test_sptrsv_gpu
C=build/new/tests/tasks/sptrsv/test_baselines_gpu
{ $B --gtest_list_tests | awk '/^[^ ]/{s=$1} /^  /{print "B " s $1}' | grep -E "levelset|syncfree"
  $C --gtest_list_tests | awk '/^[^ ]/{s=$1} /^  /{print "C " s $1}' | grep -E "SyncFree"; } > /tmp/list.txt; cat /tmp/list.txt
while read b t; do
  [ $SECONDS -gt 440 ] && { echo "stopped before $t (time)"; continue; }
  X=$B; [ $b = C ] && X=$C
  APIARY_TEST_QUICK=1 timeout $((500 - SECONDS)) compute-sanitizer --tool racecheck --error-exitcode 3 $X --gtest_filter="$t" > /tmp/r.txt 2>&1
  echo "racecheck $t rc $? $(grep -E "RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED" /tmp/r.txt | tr '\n' ' ') at $SECONDS s" | tee -a $OUT/r6_racecheck_sptrsv.txt
done < /tmp/list.txt
echo "all done at $SECONDS s"
