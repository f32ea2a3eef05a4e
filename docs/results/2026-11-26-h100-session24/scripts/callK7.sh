#!/usr/bin/env bash
# Session 24 K7: the final tree (5193ecc): runtime GPU tests, sanitizers on the reserved-queue tests and the autonomous Jacobi tests.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=16 .run/setup3.sh "test_runtime_gpu test_jacobi_gpu" new
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
R=build/new/tests/runtime/test_runtime_gpu; J=build/new/tests/tasks/jacobi/test_jacobi_gpu
timeout 100 $R > $OUT/test_runtime_gpu.log 2>&1; echo "runtime gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/test_runtime_gpu.log | tr '\n' ' ')"
for tool in memcheck racecheck synccheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 3 $R --gtest_filter='*Reserv*' > $OUT/san_queue_$tool.txt 2>&1; echo "$tool queue rc $? $(grep -E 'SUMMARY|PASSED|FAILED' $OUT/san_queue_$tool.txt | tail -2 | tr '\n' ' ')"
done
APIARY_TEST_QUICK=1 timeout 100 compute-sanitizer --tool racecheck --error-exitcode 3 $J --gtest_filter='*utonomous*' > $OUT/san_jacobi_racecheck.txt 2>&1; echo "racecheck jacobi rc $? $(grep -E 'SUMMARY|PASSED|FAILED' $OUT/san_jacobi_racecheck.txt | tail -2 | tr '\n' ' ')"
sed -i "s#$PWD#.#g" $OUT/*.log $OUT/*.txt
echo "all done at $SECONDS s"
