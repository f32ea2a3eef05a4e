#!/usr/bin/env bash
# Session 41 A5: the final analysis (one wide candidate). new = working tree; old = 9af6cde for PCG only.
# Quick set twice (analysis time and choices), PCG quick with IC(0) on both trees, the CLI on poisson2d:1000 and
# bcsstk13, the SpTRSV GPU tests.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p $OUT/a5
( JOBS=12 .run/setup3.sh "apiary bench_sptrsv bench_pcg test_sptrsv_gpu" new ) &
( JOBS=4 .run/setup3.sh "bench_pcg" old ) &
wait
echo "built at $SECONDS s"
for k in 1 2; do
  timeout 60 build/new/bench/bench_sptrsv --set quick --matrices .matrices --reps 7 --csv $OUT/a5/quick_new$k.csv \
    >> $OUT/a5/bench_new.log 2>&1; echo "quick new rc $? at $SECONDS s: $(tail -2 $OUT/a5/bench_new.log | head -1)"
done
for t in new old; do
  timeout 60 build/$t/bench/bench_pcg --quick --precond ic0 --loop tasks > $OUT/a5/pcg_$t.log 2>&1; echo "pcg $t rc $? at $SECONDS s"
done
timeout 60 build/new/apps/apiary sptrsv poisson2d:1000 --lower > $OUT/a5/cli_poisson2d_1000.log 2>&1; echo "cli p2d rc $?"
timeout 60 build/new/apps/apiary sptrsv .matrices/bcsstk13.mtx.gz --lower > $OUT/a5/cli_bcsstk13.log 2>&1; echo "cli bcsstk13 rc $?"
timeout 100 build/new/tests/tasks/sptrsv/test_sptrsv_gpu > $OUT/a5/test_sptrsv_gpu.log 2>&1
echo "test_sptrsv_gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $OUT/a5/test_sptrsv_gpu.log | head -6 | tr '\n' ' ') at $SECONDS s"
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g; s#$OUT#\$OUT#g" $OUT/a5/* 2>/dev/null
tar -czf $OUT/a5.tar.gz -C $OUT a5 && rm -rf $OUT/a5
echo "all done at $SECONDS s"
