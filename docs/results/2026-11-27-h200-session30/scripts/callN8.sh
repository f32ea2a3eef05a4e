#!/usr/bin/env bash
# Session 30 N8: GPU tests of everything a62a44f touches (Runtime destructor, LaunchResources::release waits),
# and memcheck of the TASSL solver tests on HEAD.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
T="test_runtime_gpu test_watchdog test_jacobi_gpu test_rcm_gpu test_generic_gpu test_sptrsv_gpu test_pcg_gpu"
JOBS=16 .run/setup3.sh "$T" new
echo "built at $SECONDS s"
for t in $T; do f=$(find build/new/tests -name $t -type f | head -1)
  timeout 200 $f > /tmp/g_$t.log 2>&1; echo "$t rc $? $(grep -E "^\[  PASSED|^\[  FAILED|SKIPPED \]" /tmp/g_$t.log | tr '\n' ' ') at $SECONDS s"
done
B=build/new/tests/tasks/sptrsv/test_sptrsv_gpu
APIARY_TEST_QUICK=1 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 3 $B --gtest_filter='*tassl*' > /tmp/m.txt 2>&1; echo "memcheck sptrsv tassl rc $? $(grep -E 'SUMMARY|PASSED|FAILED' /tmp/m.txt | tail -2 | tr '\n' ' ') at $SECONDS s"; tail -5 /tmp/m.txt > $OUT/n8_memcheck_sptrsv_tassl.txt
