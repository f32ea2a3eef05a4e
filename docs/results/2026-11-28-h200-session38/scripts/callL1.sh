#!/usr/bin/env bash
# Session 38 L1: ctx.aborted_together (runtime) used by RCM's Narrow and Rank: tests and sanitizers, bench_rcm once.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
JOBS=16 .run/setup3.sh "test_runtime_gpu test_rcm_gpu bench_rcm" new
echo "built at $SECONDS s"
for t in runtime/test_runtime_gpu tasks/rcm/test_rcm_gpu; do
  n=$(basename $t)
  timeout 150 build/new/tests/$t > $OUT/l1_$n.log 2>&1; echo "$n rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $OUT/l1_$n.log | head -6 | tr '\n' ' ') at $SECONDS s"
done
grep -E "OK \].*WatchdogEndsAMultiWarp|FAILED.*WatchdogEndsAMultiWarp" $OUT/l1_test_runtime_gpu.log
R=build/new/tests/tasks/rcm/test_rcm_gpu
for f in MatchesSerialOnSmallGraphs/tasks_megakernel MatchesSerialOnSmallGraphs/tasks_timesliced RankTakesTheFastPathWhereItCan/tasks_megakernel; do
  for tool in memcheck synccheck racecheck; do
    [ $SECONDS -gt 330 ] && { echo "$tool $f not run (time)"; continue; }
    n=${f//\//_}
    APIARY_TEST_QUICK=1 timeout $((370 - SECONDS)) compute-sanitizer --tool $tool --error-exitcode 3 $R --gtest_filter="*RcmGpu.$f" > $OUT/l1_${tool}_$n.txt 2>&1; echo "$tool $f rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/l1_${tool}_$n.txt | tr '\n' ' ') at $SECONDS s"
  done
done
[ $SECONDS -lt 360 ] && { timeout 60 build/new/bench/bench_rcm --no-shared --inputs poisson2d,poisson3d --methods "tasks megakernel" --reps 5 > $OUT/l1_bench.log 2>&1; echo "bench rc $? at $SECONDS s"; grep tasks $OUT/l1_bench.log | cut -c1-200; }
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log $OUT/*.txt 2>/dev/null
(cd $OUT && tar -cf l1_logs.tar l1_* && find . -maxdepth 1 -name 'l1_*' ! -name l1_logs.tar -delete)
echo "all done at $SECONDS s"
