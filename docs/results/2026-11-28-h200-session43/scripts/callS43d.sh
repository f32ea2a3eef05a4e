#!/usr/bin/env bash
# Session 43 D1: new = the working tree (TASSL runs without event records, no count-in at
# the megakernel's start, seeds of up to 2 KiB in prepare_run's parameters), old = 3cc3c02.
# SpTRSV quick set alternated new/old/new/old, bench_runtime both, the runtime and sptrsv
# GPU tests, compute-sanitizer on the changed paths.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
D=$OUT/d1; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
( JOBS=12 .run/setup3.sh "apiary bench_sptrsv bench_runtime test_runtime_gpu test_watchdog test_sptrsv_gpu" new ) &
( JOBS=4 .run/setup3.sh "bench_sptrsv bench_runtime" old ) &
wait
echo "built at $SECONDS s"
for t in new old new old; do
  timeout 60 build/$t/bench/bench_sptrsv --set quick --matrices .matrices --reps 7 --csv $D/quick_${t}_$SECONDS.csv \
    >> $D/bench_$t.log 2>&1; echo "quick $t rc $? at $SECONDS s"
done
for t in new old; do
  timeout 40 build/$t/bench/bench_runtime --scheduler megakernel --reps 5 --tasks 65536 --chain 200 > $D/runtime_$t.log 2>&1
  echo "runtime $t rc $? at $SECONDS s: $(grep 'run of one task' $D/runtime_$t.log | awk '{print $NF, $0}' | cut -c1-120 | tr '\n' '|')"
done
for t in runtime/test_runtime_gpu runtime/test_watchdog tasks/sptrsv/test_sptrsv_gpu; do
  timeout 150 build/new/tests/$t > $D/$(basename $t).log 2>&1
  echo "$t rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $D/$(basename $t).log | head -6 | tr '\n' ' ') at $SECONDS s"
done
timeout 30 build/new/apps/apiary sptrsv .matrices/nh2010.mtx.gz --lower > $D/cli_nh2010.log 2>&1; echo "cli rc $?"
R=build/new/tests/runtime/test_runtime_gpu
F='*Seeds*:*RunTiming*:Schedulers/Tasks.Mixed*:*Dependencies.Diamond*:*Dependencies.ChainRunsInOrder*'
for tool in memcheck synccheck racecheck; do
  APIARY_TEST_QUICK=1 timeout 70 compute-sanitizer --tool $tool --error-exitcode 3 $R --gtest_filter="$F" > $D/san_runtime_$tool.txt 2>&1
  echo "$tool runtime rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $D/san_runtime_$tool.txt | tr '\n' ' ') at $SECONDS s"
done
S=build/new/tests/tasks/sptrsv/test_sptrsv_gpu
for tool in memcheck synccheck racecheck; do
  APIARY_TEST_QUICK=1 timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 $S --gtest_filter='*SptrsvSplits*' > $D/san_sptrsv_$tool.txt 2>&1
  echo "$tool sptrsv rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $D/san_sptrsv_$tool.txt | tr '\n' ' ') at $SECONDS s"
done
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g; s#$OUT#\$OUT#g" $D/* 2>/dev/null
tar -czf $OUT/d1.tar.gz -C $OUT d1 && rm -rf $D
echo "all done at $SECONDS s"
