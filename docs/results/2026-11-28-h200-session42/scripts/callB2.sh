#!/usr/bin/env bash
# Session 42 B2: greedy bands (kBandSizes 128/512/2048). new = working tree; old = 36885bb.
# Quick set alternated; the sweep (both splits); sptrsv GPU tests, test_apps; compute-sanitizer on the bands tests
# (all schedulers) and racecheck on the 512-thread time-sliced programs; PCG host loop on both trees.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p $OUT/b2
( JOBS=12 .run/setup3.sh "bench_sptrsv apiary test_sptrsv_gpu test_apps bench_pcg" new ) &
( JOBS=4 .run/setup3.sh "bench_sptrsv bench_pcg" old ) &
wait
echo "built at $SECONDS s"
for t in new old new old; do
  timeout 90 build/$t/bench/bench_sptrsv --set quick --matrices .matrices --reps 7 --csv $OUT/b2/quick_${t}_$SECONDS.csv \
    >> $OUT/b2/bench_$t.log 2>&1; echo "quick $t rc $? at $SECONDS s: $(tail -2 $OUT/b2/bench_$t.log | head -1)"
done
timeout 100 build/new/tests/tasks/sptrsv/test_sptrsv_gpu > $OUT/b2/test_sptrsv_gpu.log 2>&1
echo "test_sptrsv_gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $OUT/b2/test_sptrsv_gpu.log | head -6 | tr '\n' ' ') at $SECONDS s"
timeout 60 build/new/tests/apps/test_apps --gtest_filter='*Sptrsv*' > $OUT/b2/test_apps_sptrsv.log 2>&1
echo "test_apps sptrsv rc $? $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/b2/test_apps_sptrsv.log | tr '\n' ' ')"
T=build/new/tests/tasks/sptrsv/test_sptrsv_gpu
for tool in memcheck synccheck racecheck; do
  APIARY_TEST_QUICK=1 timeout 120 compute-sanitizer --tool $tool --error-exitcode 3 $T --gtest_filter='Tassl/SptrsvSplits.*' > $OUT/b2/san_splits_$tool.txt 2>&1
  echo "san splits $tool rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/b2/san_splits_$tool.txt | tr '\n' ' ') at $SECONDS s"
done
APIARY_TEST_QUICK=1 timeout 120 compute-sanitizer --tool racecheck --error-exitcode 3 $T --gtest_filter='Tassl/SptrsvTaskWidths.*timesliced' > $OUT/b2/san_widths_timesliced_racecheck.txt 2>&1
echo "san widths timesliced racecheck rc $? $(grep -E 'RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/b2/san_widths_timesliced_racecheck.txt | tr '\n' ' ') at $SECONDS s"
[ $SECONDS -lt 470 ] && timeout 60 build/new/bench/bench_sptrsv --set quick --matrices .matrices --reps 5 --csv $OUT/b2/sweep_quick.csv \
  --sweep $OUT/b2/sweep.csv --only 'nh2010,cs4,commanche_dual,cage10,EX5,poisson3d:40,blocks8x6000@1%' \
  > $OUT/b2/sweep.log 2>&1; echo "sweep rc $? at $SECONDS s"
for t in new old; do
  [ $SECONDS -lt 530 ] && timeout 25 build/$t/bench/bench_pcg --quick --precond ic0 --loop host --order natural > $OUT/b2/pcg_host_$t.log 2>&1; echo "pcg $t rc $? at $SECONDS s"
done
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g; s#$OUT#\$OUT#g" $OUT/b2/* 2>/dev/null
tar -czf $OUT/b2.tar.gz -C $OUT b2 && rm -rf $OUT/b2
echo "all done at $SECONDS s"
