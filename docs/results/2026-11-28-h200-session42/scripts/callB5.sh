#!/usr/bin/env bash
# Session 42 B5: the final commit (host-side changes since B4: candidates with a given --nmax, the '(model)' mark).
# sptrsv GPU tests, test_apps (sptrsv), the quick set once, the CLI with --nmax 512 on commanche_dual.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p $OUT/b5
JOBS=16 .run/setup3.sh "bench_sptrsv test_sptrsv_gpu test_apps apiary" new
echo "built at $SECONDS s"
timeout 100 build/new/tests/tasks/sptrsv/test_sptrsv_gpu > $OUT/b5/test_sptrsv_gpu.log 2>&1
echo "test_sptrsv_gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $OUT/b5/test_sptrsv_gpu.log | head -6 | tr '\n' ' ') at $SECONDS s"
timeout 60 build/new/tests/apps/test_apps --gtest_filter='*Sptrsv*' > $OUT/b5/test_apps_sptrsv.log 2>&1
echo "test_apps sptrsv rc $? $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/b5/test_apps_sptrsv.log | tr '\n' ' ')"
timeout 90 build/new/bench/bench_sptrsv --set quick --matrices .matrices --reps 7 --csv $OUT/b5/quick_new.csv \
  > $OUT/b5/bench_quick.log 2>&1; echo "quick rc $? at $SECONDS s: $(tail -2 $OUT/b5/bench_quick.log | head -1)"
timeout 60 build/new/apps/apiary sptrsv .matrices/commanche_dual.mtx.gz --lower --nmax 512 > $OUT/b5/cli_commanche_nmax512.log 2>&1; echo "cli rc $?"
timeout 60 build/new/apps/apiary sptrsv .matrices/commanche_dual.mtx.gz --lower > $OUT/b5/cli_commanche_dual.log 2>&1; echo "cli rc $?"
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g; s#$OUT#\$OUT#g" $OUT/b5/* 2>/dev/null
tar -czf $OUT/b5.tar.gz -C $OUT b5 && rm -rf $OUT/b5
echo "all done at $SECONDS s"
