#!/usr/bin/env bash
# Session 23 J3: staged uploads + two barriers fewer (new) vs 027bc02 (old): tests, sanitizers, bench_rcm (x2 alternated), jacobi small.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=8 .run/setup3.sh "bench_rcm bench_jacobi test_jacobi_gpu test_runtime_gpu test_rcm_gpu" old new
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc
for t in test_runtime_gpu test_jacobi_gpu test_rcm_gpu; do
  f=$(find build/new -name $t -type f | head -1)
  timeout 300 $f > $OUT/$t.log 2>&1; echo "$t rc $? $(grep -E '^\[  PASSED|^\[  FAILED|SKIPPED \]' $OUT/$t.log | head -3 | tr '\n' ' ')"
  grep -E "^\[  FAILED" $OUT/$t.log | head -5
done
echo "tests at $SECONDS s"
for t in old new old new; do echo "== rcm $t"; timeout 200 build/$t/bench/bench_rcm --no-shared --reps 3 2>&1 | tee -a $OUT/rcm_$t.log | grep -E "tasks.*megakernel|serial|cuSOLVER|poisson|random" | head -12; done
echo "rcm at $SECONDS s"
S="--iterations 100 --reps 3 --nnz 1e4,1e5 --nnz-budget 512,1024 --row-budget 4096 --variants autonomous"
for t in old new old new; do echo "== jacobi small $t"; timeout 90 build/$t/bench/bench_jacobi $S 2>&1 | tee -a $OUT/jacobi_small_$t.log | grep -E "autonomous|graph " | awk '{print $2,$3,$6,$8}' | tr '\n' ';'; echo; done
R=$(find build/new -name test_runtime_gpu -type f | head -1)
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 3 $R --gtest_filter='HostUpload*' > $OUT/san_upload.txt 2>&1; echo "memcheck upload rc $? $(grep -E 'ERROR SUMMARY|PASSED|FAILED' $OUT/san_upload.txt | tail -3 | tr '\n' ' ')"
APIARY_TEST_QUICK=1 timeout 200 compute-sanitizer --tool racecheck --error-exitcode 3 build/new/tests/tasks/jacobi/test_jacobi_gpu --gtest_filter='*ChunksInside*:*StopBefore*:*RowsLonger*:*CheckpointIntervals*' > $OUT/racecheck_jacobi.txt 2>&1
echo "racecheck rc $? $(grep -E 'RACECHECK SUMMARY|PASSED|FAILED' $OUT/racecheck_jacobi.txt | tail -3 | tr '\n' ' ')"
sed -i "s#$PWD#.#g" $OUT/*
echo "all done at $SECONDS s"
