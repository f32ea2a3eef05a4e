#!/usr/bin/env bash
# Session 21 U8: the final RCM code (77fb1fe): tests, sanitizers, the whole RCM benchmark.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=16 .run/setup3.sh "test_rcm_gpu test_rcm_host bench_rcm" new
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for b in test_rcm_host test_rcm_gpu; do timeout 300 build/new/tests/tasks/rcm/$b > $OUT/$b.log 2>&1; echo "$b rc $? $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/$b.log | tr '\n' ' ')"; done
grep -E "Failure" -A6 $OUT/test_rcm_gpu.log | head -30
S='*RcmGpu.MatchesSerialOnSmallGraphs/*:*RcmGpu.MatchesRcmFromGivenRoots/tasks*:*LevelPathGivesUp*:*OtherLevelPaths/tasks_megakernel'
for tool in memcheck synccheck; do timeout 200 compute-sanitizer --tool $tool --error-exitcode 3 build/new/tests/tasks/rcm/test_rcm_gpu --gtest_filter="$S" > $OUT/$tool.txt 2>&1; echo "$tool rc $? $(grep -E 'ERROR SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/$tool.txt | tr '\n' ' ')"; done
timeout 200 compute-sanitizer --tool racecheck --error-exitcode 3 build/new/tests/tasks/rcm/test_rcm_gpu --gtest_filter='*RcmGpu.MatchesSerialOnSmallGraphs/tasks*:*LevelPathGivesUp*/tasks_megakernel' > $OUT/racecheck.txt 2>&1; echo "racecheck rc $? $(grep -E 'RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/racecheck.txt | tr '\n' ' ')"
echo "sanitizers at $SECONDS s"
timeout 250 build/new/bench/bench_rcm --reps 3 --json $OUT/bench_rcm.json > $OUT/bench_rcm.log 2>&1; echo "bench rc $?"; grep -E "poisson|random_spd" $OUT/bench_rcm.log
sed -i "s#$PWD#.#g" $OUT/*
echo "all done at $SECONDS s"
