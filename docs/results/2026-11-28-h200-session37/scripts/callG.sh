#!/usr/bin/env bash
# Session 37 G: the committed tree (Rank's fast levels) = new: tests, the full bench_rcm set against HEAD~ (old),
# apiary rcm's report, sanitizers (time-sliced; the new test).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
JOBS=5 .run/setup3.sh "bench_rcm" old > /tmp/s1.txt 2>&1 &
JOBS=11 .run/setup3.sh "bench_rcm test_rcm_gpu apiary" new > /tmp/s2.txt 2>&1 &
wait; cat /tmp/s1.txt /tmp/s2.txt
echo "built at $SECONDS s"
timeout 100 build/new/tests/tasks/rcm/test_rcm_gpu > $OUT/g_test_rcm_gpu.log 2>&1; echo "test_rcm_gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $OUT/g_test_rcm_gpu.log | tr '\n' ' ') at $SECONDS s"
grep -E "Failure|Expected|Which is|error" $OUT/g_test_rcm_gpu.log | head -8 | cut -c1-250
for t in new old; do
  timeout 150 build/$t/bench/bench_rcm --no-shared --reps 3 --json $OUT/g_bench_$t.json > $OUT/g_bench_$t.log 2>&1
  echo "== $t rc $? at $SECONDS s"; grep -E "scram" $OUT/g_bench_$t.log | cut -c1-20,60-220
done
timeout 60 build/new/apps/apiary rcm poisson2d:1000 --variant tasks --scheduler all > $OUT/g_apiary_rcm.log 2>&1; echo "apiary rc $? at $SECONDS s"; tail -8 $OUT/g_apiary_rcm.log | cut -c1-400
T=build/new/tests/tasks/rcm/test_rcm_gpu
for f in MatchesSerialOnSmallGraphs/tasks_timesliced RankTakesTheFastPathWhereItCan/tasks_megakernel; do
  for tool in memcheck synccheck racecheck; do
    [ $SECONDS -gt 470 ] && { echo "$tool $f not run (time)"; continue; }
    n=${f//\//_}
    APIARY_TEST_QUICK=1 timeout $((560 - SECONDS)) compute-sanitizer --tool $tool --error-exitcode 3 $T --gtest_filter="*RcmGpu.$f" > $OUT/g_${tool}_$n.txt 2>&1; echo "$tool $f rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/g_${tool}_$n.txt | tr '\n' ' ') at $SECONDS s"
  done
done
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log $OUT/*.txt 2>/dev/null
(cd $OUT && tar -cf g_logs.tar g_* && find . -maxdepth 1 -name 'g_*' ! -name g_logs.tar -delete)
echo "all done at $SECONDS s"
