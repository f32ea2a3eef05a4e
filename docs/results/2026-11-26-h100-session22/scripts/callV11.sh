#!/usr/bin/env bash
# Session 22 V11: NarrowShared within the 100 KB carve-out (sibling lists over vertex and first) (new) vs HEAD (old): tests, sanitizers, CLI, bench of both.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=8 .run/setup3.sh "test_rcm_gpu test_rcm_host test_sparse bench_rcm apiary test_apps" new old
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for b in tasks/rcm/test_rcm_host tasks/rcm/test_rcm_gpu sparse/test_sparse; do n=$(basename $b); timeout 200 build/new/tests/$b > $OUT/$n.log 2>&1; echo "$n rc $? $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/$n.log | tr '\n' ' ')"; done
grep -E "Failure" -A8 $OUT/test_rcm_gpu.log | head -40
T=$(find build/new -name test_apps -type f -perm -u+x | head -1)
timeout 100 $T > $OUT/test_apps.log 2>&1; echo "test_apps rc $? $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/test_apps.log | tr '\n' ' ')"
(cd .matrices && timeout 60 ../build/new/apps/apiary rcm fe_4elt2.mtx.gz --variant all --scheduler all) > $OUT/apiary-rcm-fe_4elt2.txt 2>&1; echo "apiary rc $?"; tail -5 $OUT/apiary-rcm-fe_4elt2.txt
echo "tests at $SECONDS s"
i=0; for t in new old new old; do i=$((i+1)); timeout 100 build/$t/bench/bench_rcm --no-shared --reps 3 > $OUT/bench_rcm_${i}_$t.log 2>&1; echo "bench $t rc $?"; grep -E "tasks megakernel +[0-9]|tasks timesliced" $OUT/bench_rcm_${i}_$t.log; done
echo "bench at $SECONDS s"
S='*RcmGpu.MatchesSerialOnSmallGraphs/*:*RcmGpu.MatchesRcmFromGivenRoots/tasks*:*LevelPathGivesUp*:*OtherLevelPaths/tasks_megakernel:*LevelsAreOrderedDuringTheLastSearch/tasks*'
for tool in memcheck synccheck; do timeout 90 compute-sanitizer --tool $tool --error-exitcode 3 build/new/tests/tasks/rcm/test_rcm_gpu --gtest_filter="$S" > $OUT/$tool.txt 2>&1; echo "$tool rc $? $(grep -E 'ERROR SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/$tool.txt | tr '\n' ' ')"; done
timeout 90 compute-sanitizer --tool racecheck --error-exitcode 3 build/new/tests/tasks/rcm/test_rcm_gpu --gtest_filter='*RcmGpu.MatchesSerialOnSmallGraphs/tasks*' > $OUT/racecheck.txt 2>&1; echo "racecheck rc $? $(grep -E 'RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/racecheck.txt | tr '\n' ' ')"
sed -i "s#$PWD#.#g" $OUT/*
echo "all done at $SECONDS s"
