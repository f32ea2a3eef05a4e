#!/usr/bin/env bash
# Session 41 A4: final SpTRSV figures. new = a3138c8+ (task width and n_max chosen by the refitted model), old = 9af6cde
# (session start). Quick set alternated new/old/new/old, PCG bench on both, the CLI on nh2010 and bcsstk13, the GPU
# tests of sptrsv and pcg, compute-sanitizer on the whole sptrsv GPU test at the wide width.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p $OUT/a4
( JOBS=12 .run/setup3.sh "apiary bench_sptrsv bench_pcg test_sptrsv_gpu test_pcg_gpu" new ) &
( JOBS=4 .run/setup3.sh "bench_sptrsv bench_pcg" old ) &
wait
echo "built at $SECONDS s"
for t in new old new old; do
  timeout 60 build/$t/bench/bench_sptrsv --set quick --matrices .matrices --reps 7 --csv $OUT/a4/quick_${t}_$SECONDS.csv \
    >> $OUT/a4/bench_$t.log 2>&1; echo "quick $t rc $? at $SECONDS s: $(tail -2 $OUT/a4/bench_$t.log | head -1)"
done
for t in new old; do
  timeout 90 build/$t/bench/bench_pcg --precond ic0 --loop tasks --order natural poisson2d:1000 poisson3d:50 > $OUT/a4/pcg_$t.log 2>&1; echo "pcg $t rc $? at $SECONDS s"
done
for m in nh2010 bcsstk13; do
  timeout 60 build/new/apps/apiary sptrsv .matrices/$m.mtx.gz --lower > $OUT/a4/cli_$m.log 2>&1; echo "cli $m rc $?"
done
timeout 60 build/new/apps/apiary sptrsv .matrices/nh2010.mtx.gz --lower --threads 300 > $OUT/a4/cli_bad_threads.log 2>&1; echo "cli bad threads rc $?"
for t in sptrsv/test_sptrsv_gpu pcg/test_pcg_gpu; do
  timeout 200 build/new/tests/tasks/$t > $OUT/a4/$(basename $t).log 2>&1
  echo "$t rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $OUT/a4/$(basename $t).log | head -6 | tr '\n' ' ') at $SECONDS s"
done
T=build/new/tests/tasks/sptrsv/test_sptrsv_gpu
for tool in memcheck synccheck; do
  APIARY_TEST_QUICK=1 timeout 120 compute-sanitizer --tool $tool --error-exitcode 3 $T > $OUT/a4/san_sptrsv_$tool.txt 2>&1
  echo "$tool sptrsv rc $? $(grep -E 'ERROR SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/a4/san_sptrsv_$tool.txt | tr '\n' ' ') at $SECONDS s"
done
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g; s#$OUT#\$OUT#g" $OUT/a4/* 2>/dev/null
tar -czf $OUT/a4.tar.gz -C $OUT a4 && rm -rf $OUT/a4
echo "all done at $SECONDS s"
