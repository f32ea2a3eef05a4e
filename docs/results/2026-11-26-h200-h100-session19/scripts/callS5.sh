#!/usr/bin/env bash
# Session 19 S5: racecheck on TinyBudgets: the graph baseline old vs new (S4 saw the tool fail there), the task variants new.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=8 .run/setup3.sh "test_jacobi_gpu" old new
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
for run in "old *TinyBudgets*/graph" "new *TinyBudgets*/graph" "new *TinyBudgets*-*/graph:*/kernels"; do
  set -- $run
  APIARY_TEST_QUICK=1 timeout 90 compute-sanitizer --tool racecheck --error-exitcode 3 build/$1/tests/tasks/jacobi/test_jacobi_gpu --gtest_filter="$2" > /tmp/san.log 2>&1
  echo "racecheck $1 $2 rc $? $(grep -E 'RACECHECK SUMMARY|PASSED|FAILED' /tmp/san.log | tail -3 | tr '\n' ' ')"
  grep -E "Error|error" /tmp/san.log | head -3 | cut -c1-200
done 2>&1 | tee $OUT/racecheck_tiny.txt
echo "all done at $SECONDS s"
