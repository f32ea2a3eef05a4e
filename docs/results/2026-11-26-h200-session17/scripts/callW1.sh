#!/usr/bin/env bash
# Deep claims in the worker kernels (new) against HEAD (old): tests, sanitizers, bench_runtime and bench_jacobi under timesliced.
set -uo pipefail
cd "$(dirname "$0")/.."
.run/setup.sh "bench_runtime bench_jacobi" "bench_runtime bench_jacobi test_runtime_gpu test_jacobi_gpu test_generic_gpu"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
build/new/tests/runtime/test_runtime_gpu > /tmp/tr.log 2>&1; echo "runtime full rc $? $(tail -1 /tmp/tr.log)"
build/new/tests/tasks/generic/test_generic_gpu > /tmp/tg.log 2>&1; echo "generic full rc $? $(tail -1 /tmp/tg.log)"
APIARY_TEST_QUICK=1 build/new/tests/tasks/jacobi/test_jacobi_gpu > /tmp/tj.log 2>&1; echo "jacobi quick rc $? $(tail -1 /tmp/tj.log)"
for tool in memcheck racecheck synccheck; do
  APIARY_TEST_QUICK=1 compute-sanitizer --tool $tool --error-exitcode 3 build/new/tests/runtime/test_runtime_gpu --gtest_filter='*DeepQueue*:*EveryItemExactlyOnce*:*RingWraps*:*Timesliced*' > /tmp/san.log 2>&1
  echo "$tool runtime rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' /tmp/san.log | tail -3 | tr '\n' ' ')"
done 2>&1 | tee $OUT/sanitizers_workers.txt
for t in old new old new; do echo "== runtime $t"; build/$t/bench/bench_runtime --reps 5 2>&1 | tee -a $OUT/w_runtime_$t.log | grep -E "megakernel|timesliced" | awk -F'  +' '{print $2":"$3}' | tr '\n' ';'; echo; done
L="--iterations 50 --reps 3 --nnz 1e7 --nnz-budget 1024,4096 --spec poisson3d:150 --variants autonomous,stages-phases --schedulers timesliced"
for t in old new; do echo "== jacobi large timesliced $t"; build/$t/bench/bench_jacobi $L 2>&1 | tee $OUT/w_large_$t.log | grep -E "autonomous|stages" | awk '{print $1,$3,$5,$7,$NF}' | tr '\n' ';'; echo; done
