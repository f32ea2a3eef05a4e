#!/usr/bin/env bash
# Session 19 S4: racecheck of the Jacobi GPU tests by filter (S3 saw rc 11), then old vs new Jacobi small (and runtime) on this GPU.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=8 .run/setup3.sh "bench_jacobi bench_runtime test_jacobi_gpu" old new
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for f in '*DiagonallyDominant*:*Stop*' '*Longer*' '*TinyBudgets*'; do
  APIARY_TEST_QUICK=1 timeout 150 compute-sanitizer --tool racecheck --error-exitcode 3 build/new/tests/tasks/jacobi/test_jacobi_gpu --gtest_filter="$f" > /tmp/san.log 2>&1
  echo "racecheck jacobi $f rc $? $(grep -E 'RACECHECK SUMMARY|PASSED|FAILED' /tmp/san.log | tail -3 | tr '\n' ' ')"
  tail -5 /tmp/san.log | cut -c1-300
done 2>&1 | tee $OUT/racecheck_jacobi.txt
echo "racecheck done at $SECONDS s"
S="--iterations 100 --reps 3 --nnz 1e4,1e5,1e6 --nnz-budget 512,1024,4096 --row-budget 4096"
for t in old new old new; do echo "== jacobi small $t"; build/$t/bench/bench_jacobi $S 2>&1 | tee -a $OUT/jacobi_$t.log | grep -E "autonomous|graph " | awk '{print $2,$3,$6,$8}' | tr '\n' ';'; echo; done
for t in old new; do echo "== runtime $t"; build/$t/bench/bench_runtime --reps 5 2>&1 | tee -a $OUT/runtime_$t.log | grep -E "megakernel" | awk -F'  +' '{print $3}' | tr '\n' ';'; echo; done
sed -i "s#$PWD#.#g" $OUT/*.log $OUT/*.txt
echo "all done at $SECONDS s"
