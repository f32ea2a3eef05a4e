#!/usr/bin/env bash
# Session 42 B7 (experiment, not landed): seeds of up to 1 KiB in prepare_run's parameters (.run/patch_I.sh).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p $OUT/b7
JOBS=16 .run/setup3.sh "bench_sptrsv test_runtime_gpu" newI
echo "built at $SECONDS s"
timeout 40 build/newI/bench/bench_sptrsv --set quick --matrices .matrices --reps 7 --csv $OUT/b7/quick_newI.csv \
  --only 'nh2010,cs4,commanche_dual,cage10,EX5,blocks16x1000@0.1%,bcsstk13,fe_4elt2,poisson3d:40' > $OUT/b7/bench.log 2>&1; echo "bench rc $? at $SECONDS s"
timeout 60 build/newI/tests/runtime/test_runtime_gpu > $OUT/b7/test_runtime_gpu.log 2>&1
echo "test_runtime_gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $OUT/b7/test_runtime_gpu.log | head -6 | tr '\n' ' ') at $SECONDS s"
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g; s#$OUT#\$OUT#g" $OUT/b7/* 2>/dev/null
tar -czf $OUT/b7.tar.gz -C $OUT b7 && rm -rf $OUT/b7
echo "all done at $SECONDS s"
