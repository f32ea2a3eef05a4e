#!/usr/bin/env bash
# Session 42 B4: the final tree. sptrsv GPU tests, the quick set once, then the full set (Poisson up to 10^7 rows,
# the paper's synthetic sets) with its plot.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p $OUT/b4
JOBS=16 .run/setup3.sh "bench_sptrsv test_sptrsv_gpu" new
echo "built at $SECONDS s"
timeout 100 build/new/tests/tasks/sptrsv/test_sptrsv_gpu > $OUT/b4/test_sptrsv_gpu.log 2>&1
echo "test_sptrsv_gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $OUT/b4/test_sptrsv_gpu.log | head -6 | tr '\n' ' ') at $SECONDS s"
timeout 90 build/new/bench/bench_sptrsv --set quick --matrices .matrices --reps 7 --csv $OUT/b4/quick_new.csv \
  > $OUT/b4/bench_quick.log 2>&1; echo "quick rc $? at $SECONDS s: $(tail -2 $OUT/b4/bench_quick.log | head -1)"
timeout 400 build/new/bench/bench_sptrsv --set full --matrices .matrices --reps 5 --csv $OUT/b4/full.csv \
  --json $OUT/b4/full.json > $OUT/b4/bench_full.log 2>&1; echo "full rc $? at $SECONDS s: $(tail -2 $OUT/b4/bench_full.log | head -1)"
python3 bench/plot_sptrsv.py $OUT/b4/full.csv $OUT/b4/full.png > $OUT/b4/plot.log 2>&1; echo "plot rc $?"
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g; s#$OUT#\$OUT#g" $OUT/b4/*.log $OUT/b4/*.csv 2>/dev/null
tar -czf $OUT/b4.tar.gz -C $OUT b4 && rm -rf $OUT/b4
echo "all done at $SECONDS s"
