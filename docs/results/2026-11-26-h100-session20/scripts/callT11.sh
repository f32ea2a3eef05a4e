#!/usr/bin/env bash
# Session 20 T11: the whole suite and compute-sanitizer at 9428299 (the take leaves when the run ends).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=16 .run/setup3.sh "all" new
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 300 ctest --test-dir build/new -j 4 --output-on-failure --timeout 250 > $OUT/ctest.log 2>&1; echo "ctest rc $? at $SECONDS s"
grep -E "tests passed|tests failed|\*\*\*Failed|\*\*\*Timeout|Skipped\)|Total Test" $OUT/ctest.log | tail -12
for tool in memcheck racecheck synccheck; do
  APIARY_TEST_QUICK=1 timeout 100 compute-sanitizer --tool $tool --error-exitcode 3 build/new/tests/runtime/test_runtime_gpu --gtest_filter='*DeepQueue*:*EveryItemExactlyOnce*:*Overflow*:*RingWraps*:*Seed*:*Waves*:*RunsEnd*' > /tmp/san.log 2>&1
  echo "$tool runtime rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' /tmp/san.log | tail -3 | tr '\n' ' ')"
  APIARY_TEST_QUICK=1 timeout 100 compute-sanitizer --tool $tool --error-exitcode 3 build/new/tests/tasks/jacobi/test_jacobi_gpu --gtest_filter='*DiagonallyDominant*:*Stop*:*Longer*:*ChunksInside*' > /tmp/san.log 2>&1
  echo "$tool jacobi rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' /tmp/san.log | tail -3 | tr '\n' ' ')"
done 2>&1 | tee $OUT/sanitizers.txt
echo "sanitizers at $SECONDS s"
sed -i "s#$PWD#.#g" $OUT/*.log $OUT/*.txt
echo "all done at $SECONDS s"
