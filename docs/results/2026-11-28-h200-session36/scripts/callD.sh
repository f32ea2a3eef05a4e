#!/usr/bin/env bash
# Session 36 D: the final tree (one barrier per padded BFS level; bench_rcm --inputs/--methods) against HEAD (old):
# tests, a bench pass each (megakernel and timesliced), and the sanitizers on both schedulers.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
JOBS=6 .run/setup3.sh "bench_rcm" old > /tmp/s1.txt 2>&1 &
JOBS=10 .run/setup3.sh "bench_rcm test_rcm_gpu" new > /tmp/s2.txt 2>&1 &
wait; cat /tmp/s1.txt /tmp/s2.txt
echo "built at $SECONDS s"
timeout 90 build/new/tests/tasks/rcm/test_rcm_gpu > $OUT/d_test_rcm_gpu.log 2>&1; echo "test_rcm_gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $OUT/d_test_rcm_gpu.log | tr '\n' ' ') at $SECONDS s"
for t in new old; do
  timeout 90 build/$t/bench/bench_rcm --no-shared --inputs poisson2d,poisson3d --methods "tasks megakernel,tasks timesliced,tasks megakernel no padding" --reps 5 > $OUT/d_${t}.log 2>&1
  echo "== $t rc $? at $SECONDS s"; grep -E "tasks" $OUT/d_${t}.log | cut -c1-20,60-220
done
T=build/new/tests/tasks/rcm/test_rcm_gpu
for f in MatchesSerialOnSmallGraphs/tasks_megakernel MatchesSerialOnSmallGraphs/tasks_timesliced BfsReadsPaddedRowsWhereTheDegreeIsSmall/tasks_megakernel; do
  for tool in memcheck synccheck racecheck; do
    [ $SECONDS -gt 390 ] && { echo "$tool $f not run (time)"; continue; }
    n=${f//\//_}
    APIARY_TEST_QUICK=1 timeout $((440 - SECONDS)) compute-sanitizer --tool $tool --error-exitcode 3 $T --gtest_filter="*RcmGpu.$f" > $OUT/d_${tool}_$n.txt 2>&1; echo "$tool $f rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/d_${tool}_$n.txt | tr '\n' ' ') at $SECONDS s"
  done
done
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log $OUT/*.txt 2>/dev/null
(cd $OUT && tar -cf d_sanitizers.tar d_*check_*.txt && rm d_*check_*.txt)
echo "all done at $SECONDS s"
