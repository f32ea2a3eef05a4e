#!/usr/bin/env bash
# Session 37 F: Rank's fast levels (bit masks; parent lists by child; state in shared memory) = new,
# against HEAD (old): tests, rank_levels' probes (newM), two bench passes each, sanitizers.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
JOBS=5 .run/setup3.sh "bench_rcm" old newM > /tmp/s1.txt 2>&1 &
JOBS=6 .run/setup3.sh "bench_rcm test_rcm_gpu" new > /tmp/s2.txt 2>&1 &
wait; cat /tmp/s1.txt /tmp/s2.txt
echo "built at $SECONDS s"
timeout 100 build/new/tests/tasks/rcm/test_rcm_gpu > $OUT/f_test_rcm_gpu.log 2>&1; echo "test_rcm_gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $OUT/f_test_rcm_gpu.log | tr '\n' ' ') at $SECONDS s"
grep -E "Failure|Expected|Which is|error" $OUT/f_test_rcm_gpu.log | head -8 | cut -c1-250
timeout 60 build/newM/bench/bench_rcm --no-shared --inputs poisson2d,poisson3d --methods "tasks megakernel" --reps 2 > $OUT/f_instr.log 2>&1; echo "instr rc $? at $SECONDS s"
grep -E "^RANKM" $OUT/f_instr.log | sort | uniq -c | sort -rn | head -6 | cut -c1-300
for pass in 1 2; do for t in new old; do
  timeout 90 build/$t/bench/bench_rcm --no-shared --inputs poisson2d,poisson3d --methods "tasks megakernel,tasks timesliced" --reps 5 > $OUT/f_${t}_$pass.log 2>&1
  echo "== $t pass $pass rc $? at $SECONDS s"; grep -E "tasks" $OUT/f_${t}_$pass.log | cut -c1-20,60-220
done; done
T=build/new/tests/tasks/rcm/test_rcm_gpu
for f in MatchesSerialOnSmallGraphs/tasks_megakernel LevelsAreOrderedDuringTheLastSearch/tasks_megakernel; do
  for tool in memcheck racecheck synccheck; do
    [ $SECONDS -gt 480 ] && { echo "$tool $f not run (time)"; continue; }
    n=${f//\//_}
    APIARY_TEST_QUICK=1 timeout $((560 - SECONDS)) compute-sanitizer --tool $tool --error-exitcode 3 $T --gtest_filter="*RcmGpu.$f" > $OUT/f_${tool}_$n.txt 2>&1; echo "$tool $f rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/f_${tool}_$n.txt | tr '\n' ' ') at $SECONDS s"
  done
done
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log $OUT/*.txt 2>/dev/null
(cd $OUT && tar -cf f_logs.tar f_*.log f_*.txt && rm f_*.log f_*.txt)
echo "all done at $SECONDS s"
