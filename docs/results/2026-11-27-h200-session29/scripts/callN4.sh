#!/usr/bin/env bash
# Session 29 N4: the GPU tests of every program that holds a MappedHostBuffer (runtime, watchdog,
# Jacobi, RCM, generic, apps) on HEAD, and memcheck on the runtime's and Jacobi's and RCM's GPU tests.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
T="test_runtime_gpu test_watchdog test_jacobi_gpu test_rcm_gpu test_generic_gpu test_baselines_gpu test_sptrsv_system"
JOBS=16 .run/setup3.sh "$T" new
echo "built at $SECONDS s"
for t in $T; do f=$(find build/new/tests -name $t -type f | head -1)
  timeout 200 $f > /tmp/g_$t.log 2>&1; echo "$t rc $? $(grep -E "^\[  PASSED|^\[  FAILED|SKIPPED \]" /tmp/g_$t.log | tr '\n' ' ') at $SECONDS s"
done
for t in test_runtime_gpu test_jacobi_gpu test_rcm_gpu; do f=$(find build/new/tests -name $t -type f | head -1)
  timeout 100 compute-sanitizer --tool memcheck $f --gtest_filter=-HostUpload.FailedCopyThrowsAndReturns > /tmp/m_$t.log 2>&1; echo "memcheck $t rc $? $(grep -E 'ERROR SUMMARY|^\[  PASSED|^\[  FAILED' /tmp/m_$t.log | tr '\n' ' ') at $SECONDS s"
  tail -5 /tmp/m_$t.log > $OUT/n4_memcheck_$t.txt
done
sed -i "s#$PWD#.#g; s#/root/out#OUT#g" $OUT/*.txt
echo "all done at $SECONDS s"
