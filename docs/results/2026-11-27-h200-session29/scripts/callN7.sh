#!/usr/bin/env bash
# Session 29 N7: memcheck of the TASSL solver tests on the final tree (plans made by the new analysis).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
JOBS=16 .run/setup3.sh test_sptrsv_gpu new
echo "built at $SECONDS s"
B=build/new/tests/tasks/sptrsv/test_sptrsv_gpu
APIARY_TEST_QUICK=1 timeout 110 compute-sanitizer --tool memcheck --error-exitcode 3 $B --gtest_filter='*tassl*' > /tmp/m.txt 2>&1; echo "memcheck sptrsv tassl rc $? $(grep -E 'SUMMARY|PASSED|FAILED' /tmp/m.txt | tail -2 | tr '\n' ' ') at $SECONDS s"; tail -5 /tmp/m.txt > $OUT/n7_memcheck_sptrsv_tassl.txt
