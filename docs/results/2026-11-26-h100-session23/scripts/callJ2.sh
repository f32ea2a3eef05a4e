#!/usr/bin/env bash
# Session 23 J2: two barriers fewer per row task (new) vs 027bc02 (old): Jacobi GPU tests, racecheck, bench small (alternated x2), large once.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=8 .run/setup3.sh "bench_jacobi test_jacobi_gpu" old new
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 150 build/new/tests/tasks/jacobi/test_jacobi_gpu > $OUT/test_jacobi_gpu.log 2>&1; echo "jacobi gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/test_jacobi_gpu.log | tr '\n' ' ')"
grep -E "^\[  FAILED" $OUT/test_jacobi_gpu.log | head -5
echo "tests at $SECONDS s"
S="--iterations 100 --reps 3 --nnz 1e4,1e5,1e6 --nnz-budget 512,1024,4096 --row-budget 4096 --variants autonomous,stages-deps,checkpoints"
for t in old new old new; do echo "== jacobi small $t"; timeout 90 build/$t/bench/bench_jacobi $S 2>&1 | tee -a $OUT/jacobi_small_$t.log | grep -E "autonomous|graph " | awk '{print $2,$3,$6,$8}' | tr '\n' ';'; echo; done
echo "small done at $SECONDS s"
L="--iterations 50 --reps 3 --nnz 1e7 --nnz-budget 4096,65536 --row-budget 1024,16384 --spec poisson3d:150 --variants autonomous,stages-deps,checkpoints"
for t in old new; do echo "== jacobi large $t"; timeout 200 build/$t/bench/bench_jacobi $L 2>&1 | tee -a $OUT/jacobi_large_$t.log | grep -E "autonomous|graph" | awk '{print $1,$3"/"$4,$6,$8}' | tr '\n' ';'; echo; done
echo "large done at $SECONDS s"
APIARY_TEST_QUICK=1 timeout 200 compute-sanitizer --tool racecheck --error-exitcode 3 build/new/tests/tasks/jacobi/test_jacobi_gpu --gtest_filter='*ChunksInside*:*StopBefore*:*RowsLonger*:*CheckpointIntervals*' > $OUT/racecheck.txt 2>&1
echo "racecheck rc $? $(grep -E 'RACECHECK SUMMARY|PASSED|FAILED' $OUT/racecheck.txt | tail -3 | tr '\n' ' ')"
sed -i "s#$PWD#.#g" $OUT/*.log $OUT/*.txt
echo "all done at $SECONDS s"
