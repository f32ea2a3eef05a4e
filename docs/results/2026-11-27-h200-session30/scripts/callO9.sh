#!/usr/bin/env bash
# Session 30 O9: the final tree's other programs that run the analysis (CLI, system, compare, baselines, PCG host,
# apps), and racecheck/synccheck of the TASSL solver tests.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
T="test_sptrsv_system test_sptrsv_compare test_baselines_gpu test_pcg_host test_apps test_sptrsv_gpu apiary"
JOBS=16 .run/setup3.sh "$T" new
echo "built at $SECONDS s"
for t in test_sptrsv_system test_sptrsv_compare test_baselines_gpu test_pcg_host test_apps; do f=$(find build/new/tests -name $t -type f | head -1)
  timeout 200 $f > /tmp/g_$t.log 2>&1; echo "$t rc $? $(grep -E "^\[  PASSED|^\[  FAILED|SKIPPED \] [0-9]" /tmp/g_$t.log | tr '\n' ' ') at $SECONDS s"
done
build/new/apps/apiary sptrsv .matrices/nh2010.mtx.gz --lower --reps 5 > $OUT/o9_apiary_sptrsv_nh2010.txt 2>&1; echo "apiary sptrsv nh2010 rc $?"; tail -25 $OUT/o9_apiary_sptrsv_nh2010.txt
B=build/new/tests/tasks/sptrsv/test_sptrsv_gpu
for tool in racecheck synccheck; do
  APIARY_TEST_QUICK=1 timeout 200 compute-sanitizer --tool $tool --error-exitcode 3 $B --gtest_filter='*tassl*' > /tmp/m.txt 2>&1; echo "$tool sptrsv tassl rc $? $(grep -E "SUMMARY|PASSED|FAILED" /tmp/m.txt | tail -2 | tr '\n' ' ') at $SECONDS s"; tail -5 /tmp/m.txt > $OUT/o9_${tool}_sptrsv_tassl.txt
done
sed -i "s#$PWD#.#g; s#/root/out#OUT#g" $OUT/*.txt
