#!/usr/bin/env bash
# Final tree: compute-sanitizer on the queue and Jacobi tests; SpTRSV, RCM, PCG old (HEAD~) vs new.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=8 .run/setup3.sh "bench_sptrsv bench_rcm bench_pcg" old & JOBS=8 .run/setup3.sh "bench_sptrsv bench_rcm bench_pcg test_runtime_gpu test_jacobi_gpu" new & wait
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for tool in memcheck racecheck synccheck; do
  APIARY_TEST_QUICK=1 compute-sanitizer --tool $tool --error-exitcode 3 build/new/tests/runtime/test_runtime_gpu --gtest_filter='*DeepQueue*:*EveryItemExactlyOnce*:*Overflow*:*RingWraps*:*Seed*' > /tmp/san.log 2>&1
  echo "$tool runtime rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' /tmp/san.log | tail -3 | tr '\n' ' ')"
  APIARY_TEST_QUICK=1 compute-sanitizer --tool $tool --error-exitcode 3 build/new/tests/tasks/jacobi/test_jacobi_gpu --gtest_filter='*DiagonallyDominant*:*Stop*' > /tmp/san.log 2>&1
  echo "$tool jacobi rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' /tmp/san.log | tail -3 | tr '\n' ' ')"
done 2>&1 | tee $OUT/sanitizers.txt
echo "sanitizers done at $SECONDS s"
for t in old new; do echo "== sptrsv $t"; build/$t/bench/bench_sptrsv --set quick --matrices .matrices --reps 5 --csv /tmp/sptrsv_$t.csv > $OUT/bench_sptrsv_$t.log 2>&1; echo "rc $?"; grep -iE "geometric" $OUT/bench_sptrsv_$t.log | head -3; done
for t in old new; do echo "== pcg $t"; build/$t/bench/bench_pcg --order color --precond ic0 --loop tasks --reps 3 poisson3d:100 > $OUT/bench_pcg_$t.log 2>&1; echo "rc $?"; grep -iE "tasks" $OUT/bench_pcg_$t.log | head -3; done
echo "pcg done at $SECONDS s"
for t in old new; do echo "== rcm $t"; build/$t/bench/bench_rcm --no-shared --reps 3 > $OUT/bench_rcm_$t.log 2>&1; grep -E "tasks|cub" $OUT/bench_rcm_$t.log | head -9 | awk '{print $1,$6,$7,$8,$9}'; done
sed -i "s#$PWD#.#g" $OUT/*.log $OUT/*.txt
echo "all done at $SECONDS s"
