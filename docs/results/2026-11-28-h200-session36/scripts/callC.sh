#!/usr/bin/env bash
# Session 36 C: Rank copies the next level's inputs ahead (RankStage) + one barrier per padded BFS level (new, the
# working tree) against HEAD (old); Rank's phases again (newR); tests; sanitizers on the small graphs and the grid.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
JOBS=6 .run/setup3.sh "bench_rcm" old newR > /tmp/s1.txt 2>&1 &
JOBS=6 .run/setup3.sh "bench_rcm test_rcm_gpu" new > /tmp/s2.txt 2>&1 &
wait; cat /tmp/s1.txt /tmp/s2.txt
echo "built at $SECONDS s"
timeout 90 build/new/tests/tasks/rcm/test_rcm_gpu > $OUT/c_test_rcm_gpu.log 2>&1; echo "test_rcm_gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $OUT/c_test_rcm_gpu.log | tr '\n' ' ') at $SECONDS s"
grep -E "Failure|Expected|Which is|actual" $OUT/c_test_rcm_gpu.log | head -10
timeout 60 build/newR/bench/bench_rcm --no-shared --inputs poisson2d,poisson3d --methods "tasks megakernel" --reps 2 > $OUT/c_instr.log 2>&1; echo "instr rc $? at $SECONDS s"
grep -E "^RANK" $OUT/c_instr.log | sort | uniq -c | sort -rn | head -4 | cut -c1-300
for pass in 1 2; do for t in old new; do
  timeout 90 build/$t/bench/bench_rcm --no-shared --methods "tasks megakernel,tasks timesliced" --reps 5 > $OUT/c_${t}_$pass.log 2>&1
  echo "== $t pass $pass rc $? at $SECONDS s"; grep -E "tasks" $OUT/c_${t}_$pass.log | cut -c1-20,60-220
done; done
T=build/new/tests/tasks/rcm/test_rcm_gpu
for tool in memcheck synccheck racecheck; do
  for f in MatchesSerialOnSmallGraphs LevelsAreOrderedDuringTheLastSearch; do
    [ $SECONDS -gt 500 ] && { echo "$tool $f not run (time)"; continue; }
    APIARY_TEST_QUICK=1 timeout $((560 - SECONDS)) compute-sanitizer --tool $tool --error-exitcode 3 $T --gtest_filter="*RcmGpu.$f/tasks_megakernel" > $OUT/c_${tool}_$f.txt 2>&1; echo "$tool $f rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/c_${tool}_$f.txt | tr '\n' ' ') at $SECONDS s"
  done
done
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log $OUT/*.txt 2>/dev/null
(cd $OUT && tar -cf c_bench.tar c_old_*.log c_new_*.log && rm c_old_*.log c_new_*.log && tar -cf c_sanitizers.tar c_*check_*.txt && rm c_*check_*.txt)
echo "all done at $SECONDS s"
