#!/usr/bin/env bash
# Session 41 A2: per-matrix task width (256/512) chosen by the model. new = working tree (wide model = narrow model's
# constants until fitted), old = HEAD 9af6cde. The sweep at both widths (to fit the model), the SpTRSV GPU tests,
# compute-sanitizer on the wide tasks, and the Jacobi sanitizer gap from session 40.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p $OUT/a2
( JOBS=12 .run/setup3.sh "bench_sptrsv test_sptrsv_gpu test_sptrsv_host test_sptrsv_system test_jacobi_gpu" new ) &
( JOBS=4 .run/setup3.sh "bench_sptrsv" old ) &
wait
echo "built at $SECONDS s"
timeout 240 build/new/bench/bench_sptrsv --set quick --matrices .matrices --reps 7 --csv $OUT/a2/quick_new.csv \
  --sweep $OUT/a2/sweep_new.csv > $OUT/a2/bench_new.log 2>&1; echo "sweep new rc $? at $SECONDS s"; tail -2 $OUT/a2/bench_new.log
timeout 60 build/old/bench/bench_sptrsv --set quick --matrices .matrices --reps 7 --csv $OUT/a2/quick_old.csv \
  > $OUT/a2/bench_old.log 2>&1; echo "old rc $? at $SECONDS s"; tail -2 $OUT/a2/bench_old.log
for t in test_sptrsv_host test_sptrsv_system test_sptrsv_gpu; do
  timeout 200 build/new/tests/tasks/sptrsv/$t > $OUT/a2/$t.log 2>&1
  echo "$t rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $OUT/a2/$t.log | head -6 | tr '\n' ' ') at $SECONDS s"
done
T=build/new/tests/tasks/sptrsv/test_sptrsv_gpu
for tool in memcheck synccheck racecheck; do
  APIARY_TEST_QUICK=1 timeout 100 compute-sanitizer --tool $tool --error-exitcode 3 $T --gtest_filter='Tassl/SptrsvTaskWidths.*megakernel' > $OUT/a2/san_sptrsv_$tool.txt 2>&1
  echo "$tool sptrsv rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/a2/san_sptrsv_$tool.txt | tr '\n' ' ') at $SECONDS s"
done
J=build/new/tests/tasks/jacobi/test_jacobi_gpu
for tool in memcheck synccheck racecheck; do
  [ $SECONDS -gt 480 ] && { echo "$tool jacobi not run (time)"; continue; }
  APIARY_TEST_QUICK=1 timeout 90 compute-sanitizer --tool $tool --error-exitcode 3 $J --gtest_filter='-*ChunksInsideAndOutside*' > $OUT/a2/san_jacobi_$tool.txt 2>&1
  echo "$tool jacobi rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/a2/san_jacobi_$tool.txt | tr '\n' ' ') at $SECONDS s"
done
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/a2/* 2>/dev/null
tar -czf $OUT/a2.tar.gz -C $OUT a2 && rm -rf $OUT/a2
echo "all done at $SECONDS s"
