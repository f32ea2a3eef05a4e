#!/usr/bin/env bash
# Session 42 B1: bands (Split::bands) as extra analysis candidates. new = working tree; old = 36885bb.
# Quick set new/old/new; the sweep (both splits) on the matrices where bands may matter.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p $OUT/b1
( JOBS=12 .run/setup3.sh "bench_sptrsv apiary" new ) &
( JOBS=4 .run/setup3.sh "bench_sptrsv" old ) &
wait
echo "built at $SECONDS s"
for t in new old new; do
  timeout 90 build/$t/bench/bench_sptrsv --set quick --matrices .matrices --reps 7 --csv $OUT/b1/quick_${t}_$SECONDS.csv \
    >> $OUT/b1/bench_$t.log 2>&1; echo "quick $t rc $? at $SECONDS s: $(tail -2 $OUT/b1/bench_$t.log | head -1)"
done
timeout 200 build/new/bench/bench_sptrsv --set quick --matrices .matrices --reps 5 --csv $OUT/b1/sweep_quick.csv \
  --sweep $OUT/b1/sweep.csv \
  --only 'nh2010,cs4,commanche_dual,delaunay_n13,fe_4elt2,cage10,EX5,gemat12,poisson2d:300,poisson3d:40,poisson3d:100,blocks16x1000@0.1%,blocks16x16000@0.1%,blocks8x6000@1%,blocks64x6000@1%' \
  > $OUT/b1/sweep.log 2>&1; echo "sweep rc $? at $SECONDS s"
timeout 60 build/new/apps/apiary sptrsv poisson3d:100 --lower > $OUT/b1/cli_poisson3d_100.log 2>&1; echo "cli rc $?"
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g; s#$OUT#\$OUT#g" $OUT/b1/* 2>/dev/null
tar -czf $OUT/b1.tar.gz -C $OUT b1 && rm -rf $OUT/b1
echo "all done at $SECONDS s"
