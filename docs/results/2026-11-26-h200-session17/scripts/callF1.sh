#!/usr/bin/env bash
# Final: the new overflow-under-deep-claims test (full, quick, memcheck), registers of every megakernel against cf7d329.
set -uo pipefail
cd "$(dirname "$0")/.."
.run/setup.sh "bench_runtime" "test_runtime_gpu"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
T=build/new/tests/runtime/test_runtime_gpu
$T --gtest_filter='*Overflow*:*Deep*' > /tmp/t.log 2>&1; echo "full rc $? $(grep -c '^\[       OK' /tmp/t.log) ok; $(tail -1 /tmp/t.log)"
APIARY_TEST_QUICK=1 $T > /tmp/tq.log 2>&1; echo "runtime quick rc $? $(tail -1 /tmp/tq.log)"
APIARY_TEST_QUICK=1 compute-sanitizer --tool memcheck --error-exitcode 3 $T --gtest_filter='*OverflowWhile*:*Deep*' > /tmp/san.log 2>&1; echo "memcheck rc $? $(grep -E 'ERROR SUMMARY|PASSED|FAILED' /tmp/san.log | tail -2 | tr '\n' ' ')"
$T --gtest_filter='*OverflowWhile*' > $OUT/test_overflow_deep.log 2>&1
.run/regs.sh $OUT/regs_megakernel.txt; grep -c . $OUT/regs_megakernel.txt
