#!/usr/bin/env bash
# Session 37 I: the final tree (ChildParents shared by both paths of Rank): tests, a bench pass, sanitizers.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
JOBS=16 .run/setup3.sh "bench_rcm test_rcm_gpu" new
echo "built at $SECONDS s"
timeout 100 build/new/tests/tasks/rcm/test_rcm_gpu > $OUT/i_test_rcm_gpu.log 2>&1; echo "test_rcm_gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $OUT/i_test_rcm_gpu.log | tr '\n' ' ') at $SECONDS s"
timeout 90 build/new/bench/bench_rcm --no-shared --inputs poisson2d,poisson3d --methods "tasks megakernel,tasks timesliced" --reps 5 > $OUT/i_bench.log 2>&1
echo "== bench rc $? at $SECONDS s"; grep -E "tasks" $OUT/i_bench.log | cut -c1-20,60-220
T=build/new/tests/tasks/rcm/test_rcm_gpu
for f in MatchesSerialOnSmallGraphs/tasks_megakernel RankTakesTheFastPathWhereItCan/tasks_timesliced; do
  for tool in memcheck synccheck racecheck; do
    [ $SECONDS -gt 330 ] && { echo "$tool $f not run (time)"; continue; }
    n=${f//\//_}
    APIARY_TEST_QUICK=1 timeout $((380 - SECONDS)) compute-sanitizer --tool $tool --error-exitcode 3 $T --gtest_filter="*RcmGpu.$f" > $OUT/i_${tool}_$n.txt 2>&1; echo "$tool $f rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/i_${tool}_$n.txt | tr '\n' ' ') at $SECONDS s"
  done
done
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log $OUT/*.txt 2>/dev/null
(cd $OUT && tar -cf i_logs.tar i_* && find . -maxdepth 1 -name 'i_*' ! -name i_logs.tar -delete)
echo "all done at $SECONDS s"
