#!/usr/bin/env bash
# Session 22 V2: f47aac0 (least degree first, loop-free device graph): sanitizers, CLI tests; experiment newV (no filter load in the Narrow BFS) vs new.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=8 .run/setup3.sh "test_rcm_gpu bench_rcm apiary test_apps" new newV
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
S='*RcmGpu.MatchesSerialOnSmallGraphs/*:*RcmGpu.MatchesRcmFromGivenRoots/tasks*:*LevelPathGivesUp*:*OtherLevelPaths/tasks_megakernel'
for tool in memcheck synccheck; do timeout 130 compute-sanitizer --tool $tool --error-exitcode 3 build/new/tests/tasks/rcm/test_rcm_gpu --gtest_filter="$S" > $OUT/$tool.txt 2>&1; echo "$tool rc $? $(grep -E 'ERROR SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/$tool.txt | tr '\n' ' ')"; done
timeout 90 compute-sanitizer --tool racecheck --error-exitcode 3 build/new/tests/tasks/rcm/test_rcm_gpu --gtest_filter='*RcmGpu.MatchesSerialOnSmallGraphs/tasks*' > $OUT/racecheck.txt 2>&1; echo "racecheck rc $? $(grep -E 'RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/racecheck.txt | tr '\n' ' ')"
echo "sanitizers at $SECONDS s"
A=build/new/apps/apiary
T=$(find build/new -name test_apps -type f -perm -u+x | head -1)
timeout 100 $T > $OUT/test_apps.log 2>&1; echo "test_apps rc $? $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/test_apps.log | tr '\n' ' ')"
(cd .matrices && timeout 60 ../$A rcm fe_4elt2.mtx.gz --variant all --scheduler all) > $OUT/apiary-rcm-fe_4elt2.txt 2>&1; echo "apiary rc $?"; tail -12 $OUT/apiary-rcm-fe_4elt2.txt
i=0; for t in newV new; do i=$((i+1)); timeout 100 build/$t/bench/bench_rcm --no-shared --reps 3 > $OUT/bench_rcm_${i}_$t.log 2>&1; echo "bench $t rc $?"; grep -E "tasks megakernel +[0-9]" $OUT/bench_rcm_${i}_$t.log; done
sed -i "s#$PWD#.#g" $OUT/*
echo "all done at $SECONDS s"
