#!/usr/bin/env bash
# Session 39 V1: the final tree (cea992b) alone: every GPU test of the changed layers (runtime, Jacobi, RCM), compute-
# sanitizer on them, and one bench pass of the autonomous variant.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
JOBS=16 .run/setup3.sh "bench_jacobi test_runtime_gpu test_jacobi_gpu test_rcm_gpu" new
echo "built at $SECONDS s"
for t in runtime/test_runtime_gpu tasks/jacobi/test_jacobi_gpu tasks/rcm/test_rcm_gpu; do
  n=$(basename $t)
  timeout 200 build/new/tests/$t > $OUT/v1_$n.log 2>&1; echo "$n rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]|SKIPPED \]' $OUT/v1_$n.log | head -8 | tr '\n' ' ') at $SECONDS s"
done
timeout 60 build/new/bench/bench_jacobi --iterations 100 --reps 3 --nnz 1e4,1e5 --nnz-budget auto,512 --variants autonomous > $OUT/v1_bench.log 2>&1
grep -E "graph|autonomous" $OUT/v1_bench.log | awk '{print $1, $3, $6, $8, $11}'
san() {  # tool binary filter name
  [ $SECONDS -gt 470 ] && { echo "$1 $4 not run (time)"; return; }
  APIARY_TEST_QUICK=1 timeout $((520 - SECONDS)) compute-sanitizer --tool $1 --error-exitcode 3 build/new/tests/$2 --gtest_filter="$3" > $OUT/v1_san_$4_$1.txt 2>&1
  echo "$1 $4 rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/v1_san_$4_$1.txt | tr '\n' ' ') at $SECONDS s"
}
for tool in memcheck synccheck racecheck; do
  san $tool tasks/jacobi/test_jacobi_gpu '*ChunksInsideAndOutsideTheSharedStageAgree/*megakernel*:*RepeatedSolvesAndOtherVariantsGiveTheSameBits/*megakernel*' jacobi
  san $tool runtime/test_runtime_gpu 'TaskTypes.*' runtime
  san $tool tasks/rcm/test_rcm_gpu '*MatchesSerialOnSmallGraphs*tasks_megakernel*' rcm
done
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log $OUT/*.txt 2>/dev/null
(cd $OUT && tar -cf v1_logs.tar v1_* && find . -maxdepth 1 -name 'v1_*' ! -name v1_logs.tar -delete)
echo "all done at $SECONDS s"
