#!/usr/bin/env bash
# Session 28 M6: racecheck of the TASSL set-up's pack kernel (daa6506): the tassl-kernels variant's solver tests.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
JOBS=16 .run/setup3.sh test_sptrsv_gpu new
echo "built at $SECONDS s"
B=build/new/tests/tasks/sptrsv/test_sptrsv_gpu
$B --gtest_list_tests | grep -c tassl_kernels
APIARY_TEST_QUICK=1 timeout 330 compute-sanitizer --tool racecheck --error-exitcode 3 $B --gtest_filter='*tassl_kernels*' > /tmp/m.txt 2>&1; echo "racecheck tassl_kernels rc $? $(grep -E 'SUMMARY|PASSED|FAILED' /tmp/m.txt | tail -3 | tr '\n' ' ') at $SECONDS s"
grep -E "^\[       OK|^\[  FAILED|RACECHECK SUMMARY" /tmp/m.txt | head -20; tail -3 /tmp/m.txt > $OUT/racecheck_tassl_kernels.txt
sed -i "s#$PWD#.#g" $OUT/*
echo "all done at $SECONDS s"
