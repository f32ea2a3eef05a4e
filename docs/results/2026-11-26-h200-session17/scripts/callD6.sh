#!/usr/bin/env bash
# Deep claims, final form: tests, sanitizers, bench_runtime and bench_jacobi old vs new.
set -uo pipefail
cd "$(dirname "$0")/.."
.run/setup.sh "bench_runtime bench_jacobi" "bench_runtime bench_jacobi test_runtime_gpu test_jacobi_gpu test_generic_gpu"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
build/new/tests/runtime/test_runtime_gpu > /tmp/tr.log 2>&1; echo "runtime full rc $? $(tail -1 /tmp/tr.log)"
build/new/tests/tasks/generic/test_generic_gpu > /tmp/tg.log 2>&1; echo "generic full rc $? $(tail -1 /tmp/tg.log)"
APIARY_TEST_QUICK=1 build/new/tests/tasks/jacobi/test_jacobi_gpu > /tmp/tj.log 2>&1; echo "jacobi quick rc $? $(tail -1 /tmp/tj.log)"
for tool in memcheck racecheck synccheck; do
  APIARY_TEST_QUICK=1 compute-sanitizer --tool $tool --error-exitcode 3 build/new/tests/runtime/test_runtime_gpu --gtest_filter='*DeepQueue*:*EveryItemExactlyOnce*:*Phases*' > /tmp/san.log 2>&1
  echo "$tool runtime rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' /tmp/san.log | tail -3 | tr '\n' ' ')"
  APIARY_TEST_QUICK=1 compute-sanitizer --tool $tool --error-exitcode 3 build/new/tests/tasks/jacobi/test_jacobi_gpu --gtest_filter='*DiagonallyDominant*:*Stop*' > /tmp/san.log 2>&1
  echo "$tool jacobi rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' /tmp/san.log | tail -3 | tr '\n' ' ')"
done 2>&1 | tee $OUT/sanitizers.txt
for t in old new old new; do echo "== runtime $t"; build/$t/bench/bench_runtime --reps 5 --scheduler megakernel 2>&1 | tee -a $OUT/bench_runtime_$t.log | grep megakernel | awk -F'  +' '{print $3}' | tr '\n' ';'; echo; done
L="--iterations 50 --reps 3 --nnz 1e6,1e7 --nnz-budget 1024,4096 --spec poisson3d:150"
for t in old new; do echo "== jacobi large $t"; build/$t/bench/bench_jacobi $L 2>&1 | tee $OUT/bench_large_$t.log | grep -E "autonomous|graph |stages|checkpoints" | awk '{print $1,$3,$5,$7,$NF}' | tr '\n' ';'; echo; done
S="--iterations 100 --reps 3 --nnz 1e4,1e5 --nnz-budget 256,512,1024"
for t in old new; do echo "== jacobi small $t"; build/$t/bench/bench_jacobi $S 2>&1 | tee -a $OUT/bench_small_$t.log | grep -E "autonomous|graph |stages|checkpoints" | awk '{print $2,$3,$5,$7}' | tr '\n' ';'; echo; done
