#!/usr/bin/env bash
# Session 43 I1: Split::tiles (boxes along the matrix's strides), chosen by the model on poisson3d:100.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
D=$OUT/i1; mkdir -p $D
JOBS=16 .run/setup3.sh "bench_sptrsv" new
echo "built at $SECONDS s"
timeout 45 build/new/bench/bench_sptrsv --set full --matrices .matrices --reps 5 --only 'poisson3d:100,poisson3d:40,poisson2d:1000' --csv $D/poisson.csv > $D/poisson.log 2>&1
echo "poisson rc $? at $SECONDS s"; grep -E "^\[" $D/poisson.log | cut -c1-150
timeout 60 build/new/bench/bench_sptrsv --set full --matrices .matrices --reps 3 --only 'poisson2d:3162,poisson3d:215' --csv $D/big.csv > $D/big.log 2>&1
echo "big rc $? at $SECONDS s"; grep -E "^\[" $D/big.log | cut -c1-150
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g; s#$OUT#\$OUT#g" $D/* 2>/dev/null
tar -czf $OUT/i1.tar.gz -C $OUT i1 && rm -rf $D
echo "all done at $SECONDS s"
