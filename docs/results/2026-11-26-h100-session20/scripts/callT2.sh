#!/usr/bin/env bash
# Session 20 T2: thread-private windows (new), + register stage to 4096 (newR) vs 00adcb3 (old).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=5 .run/setup3.sh "bench_jacobi test_jacobi_gpu" old new newR
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for t in new newR; do timeout 150 build/$t/tests/tasks/jacobi/test_jacobi_gpu > $OUT/test_jacobi_gpu_$t.log 2>&1; echo "jacobi gpu rc $? $(grep -E "^\[  PASSED|^\[  FAILED" $OUT/test_jacobi_gpu_$t.log | tr '\n' ' ')"
grep -E "^\[  FAILED" $OUT/test_jacobi_gpu_$t.log | head -3; done
echo "tests at $SECONDS s"
L="--iterations 50 --reps 3 --nnz 1e7 --nnz-budget 4096,65536 --row-budget 1024,16384 --spec poisson3d:150 --variants autonomous,stages-deps,checkpoints"
for t in old new newR; do echo "== jacobi large $t"; timeout 150 build/$t/bench/bench_jacobi $L 2>&1 | tee -a $OUT/jacobi_large_$t.log | grep -E "autonomous|graph|deps|checkp" | awk '{print $1,$3"/"$4,$6,$8,$11}' | tr '\n' ';'; echo; done
echo "jacobi large done at $SECONDS s"
S="--iterations 100 --reps 3 --nnz 1e4,1e5,1e6 --nnz-budget 512,1024,4096 --row-budget 4096 --variants autonomous,stages-deps,checkpoints"
for t in old new newR; do echo "== jacobi small $t"; timeout 100 build/$t/bench/bench_jacobi $S 2>&1 | tee -a $OUT/jacobi_$t.log | grep -E "autonomous|graph " | awk '{print $2,$3,$6,$8}' | tr '\n' ';'; echo; done
echo "small done at $SECONDS s"
APIARY_TEST_QUICK=1 timeout 150 compute-sanitizer --tool racecheck --error-exitcode 3 build/new/tests/tasks/jacobi/test_jacobi_gpu --gtest_filter='*ChunksInside*' > $OUT/racecheck_stage.txt 2>&1
echo "racecheck rc $? $(grep -E 'RACECHECK SUMMARY|PASSED|FAILED' $OUT/racecheck_stage.txt | tail -3 | tr '\n' ' ')"
sed -i "s#$PWD#.#g" $OUT/*.log $OUT/*.txt
echo "all done at $SECONDS s"
