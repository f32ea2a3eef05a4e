#!/usr/bin/env bash
# Session 30 O10: racecheck of the tassl-deps solver tests on the final tree (O9's run of every TASSL test ran out of time).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
JOBS=16 .run/setup3.sh test_sptrsv_gpu new
echo "built at $SECONDS s"
B=build/new/tests/tasks/sptrsv/test_sptrsv_gpu
APIARY_TEST_QUICK=1 timeout 330 compute-sanitizer --tool racecheck --error-exitcode 3 $B --gtest_filter='*tassl_deps*' > /tmp/m.txt 2>&1; echo "racecheck tassl-deps rc $? $(grep -E "SUMMARY|PASSED|FAILED" /tmp/m.txt | tail -2 | tr '\n' ' ') at $SECONDS s"
grep -c "Race reported\|Error" /tmp/m.txt; cp /tmp/m.txt $OUT/o10_racecheck_sptrsv_tassl_deps.txt
sed -i "s#$PWD#.#g; s#/root/out#OUT#g" $OUT/*.txt
