#!/usr/bin/env bash
# Session 24 K3: runtime queue GPU tests (all), synccheck on the reserved fan-out tests.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=16 .run/setup3.sh "test_runtime_gpu" new
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
R=build/new/tests/runtime/test_runtime_gpu
timeout 300 $R > $OUT/test_runtime_gpu.log 2>&1; echo "runtime gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/test_runtime_gpu.log | tr '\n' ' ')"; grep -E "^\[  FAILED" $OUT/test_runtime_gpu.log | head -5
timeout 250 compute-sanitizer --tool synccheck --error-exitcode 3 $R --gtest_filter='*Reserv*' > $OUT/san_queue_synccheck.txt 2>&1; echo "synccheck rc $?"
grep -E "FAILED|Failure|error|Error|watchdog|expected|Which is|Value of|Actual" $OUT/san_queue_synccheck.txt | head -20
sed -i "s#$PWD#.#g" $OUT/*.log $OUT/*.txt
echo "all done at $SECONDS s"
