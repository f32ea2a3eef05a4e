#!/usr/bin/env bash
# Session 41 A3: wide (512-thread) tasks hold up to 4x the unknowns (n_max to 24576 in double). new = working tree.
# The sweep at both widths up to 24576 (to refit the model), the SpTRSV and PCG GPU tests, compute-sanitizer on the
# wide tasks, and Jacobi racecheck without the graph baseline (the tool fails on its conditional node).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p $OUT/a3
JOBS=16 .run/setup3.sh "bench_sptrsv test_sptrsv_gpu test_sptrsv_host test_sptrsv_system test_pcg_gpu test_jacobi_gpu" new
echo "built at $SECONDS s"
timeout 240 build/new/bench/bench_sptrsv --set quick --matrices .matrices --reps 7 --csv $OUT/a3/quick_new.csv \
  --sweep $OUT/a3/sweep_new.csv > $OUT/a3/bench_new.log 2>&1; echo "sweep new rc $? at $SECONDS s"; tail -2 $OUT/a3/bench_new.log
for t in sptrsv/test_sptrsv_host sptrsv/test_sptrsv_system sptrsv/test_sptrsv_gpu pcg/test_pcg_gpu; do
  timeout 200 build/new/tests/tasks/$t > $OUT/a3/$(basename $t).log 2>&1
  echo "$t rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]|SKIPPED' $OUT/a3/$(basename $t).log | head -6 | tr '\n' ' ') at $SECONDS s"
done
T=build/new/tests/tasks/sptrsv/test_sptrsv_gpu
for tool in memcheck synccheck racecheck; do
  APIARY_TEST_QUICK=1 timeout 100 compute-sanitizer --tool $tool --error-exitcode 3 $T --gtest_filter='Tassl/SptrsvTaskWidths.*megakernel' > $OUT/a3/san_sptrsv_$tool.txt 2>&1
  echo "$tool sptrsv rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/a3/san_sptrsv_$tool.txt | tr '\n' ' ') at $SECONDS s"
done
J=build/new/tests/tasks/jacobi/test_jacobi_gpu
[ $SECONDS -lt 420 ] && { APIARY_TEST_QUICK=1 timeout 150 compute-sanitizer --tool racecheck --error-exitcode 3 $J --gtest_filter='-*ChunksInsideAndOutside*:*/graph' > $OUT/a3/san_jacobi_racecheck.txt 2>&1
  echo "racecheck jacobi rc $? $(grep -E 'RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/a3/san_jacobi_racecheck.txt | tr '\n' ' ') at $SECONDS s"; }
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g; s#$OUT#\$OUT#g" $OUT/a3/* 2>/dev/null
tar -czf $OUT/a3.tar.gz -C $OUT a3 && rm -rf $OUT/a3
echo "all done at $SECONDS s"
