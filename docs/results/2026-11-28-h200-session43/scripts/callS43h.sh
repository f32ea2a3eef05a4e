#!/usr/bin/env bash
# Session 43 H1: the final tree. sptrsv GPU tests, the full benchmark set, PCG's host loop with IC(0).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
D=$OUT/h1; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
git log --oneline -1 > $D/commit.txt 2>/dev/null
JOBS=16 .run/setup3.sh "bench_sptrsv test_sptrsv_gpu bench_pcg" new
echo "built at $SECONDS s"
timeout 60 build/new/tests/tasks/sptrsv/test_sptrsv_gpu > $D/test_sptrsv_gpu.log 2>&1
echo "test_sptrsv_gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $D/test_sptrsv_gpu.log | head -6 | tr '\n' ' ') at $SECONDS s"
timeout 200 build/new/bench/bench_sptrsv --set full --matrices .matrices --reps 5 --csv $D/full.csv > $D/full.log 2>&1
echo "full rc $? at $SECONDS s: $(tail -3 $D/full.log | tr '\n' ' ')"
python3 bench/plot_sptrsv.py $D/full.csv $D/full.png > $D/plot.log 2>&1; echo "plot rc $?"
timeout 60 build/new/bench/bench_pcg --quick --precond ic0 --loop host --order natural > $D/pcg_host.log 2>&1
echo "pcg rc $? at $SECONDS s"
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g; s#$OUT#\$OUT#g" $D/* 2>/dev/null
tar -czf $OUT/h1.tar.gz -C $OUT h1 && rm -rf $D
echo "all done at $SECONDS s"
