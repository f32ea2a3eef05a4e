#!/usr/bin/env bash
# Session 43 G1: seeds in prepare_run's parameters (new) against seeds over the bus (newS43: .run/patch_S43.sh),
# everything else the same; bench_runtime's run of one task with and without event records.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
D=$OUT/g1; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
JOBS=8 .run/setup3.sh "bench_sptrsv bench_runtime" new newS43
echo "built at $SECONDS s"
ONLY='nh2010,cs4,commanche_dual,cage10,EX5,blocks16x1000@0.1%,blocks8x6000@1%,494_bus,lund_a,pores_1,poisson3d:40'
for t in new newS43 new newS43 new newS43; do
  timeout 40 build/$t/bench/bench_sptrsv --set quick --matrices .matrices --reps 9 --only "$ONLY" --csv $D/q_${t}_$SECONDS.csv >> $D/q_$t.log 2>&1
  echo "quick $t rc $? at $SECONDS s"
done
for t in new newS43; do
  timeout 40 build/$t/bench/bench_runtime --scheduler megakernel --reps 5 --tasks 65536 --chain 200 > $D/runtime_$t.log 2>&1
  echo "runtime $t rc $? at $SECONDS s"; grep "run of one task" $D/runtime_$t.log | cut -c1-110
done
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g; s#$OUT#\$OUT#g" $D/* 2>/dev/null
tar -czf $OUT/g1.tar.gz -C $OUT g1 && rm -rf $D
echo "all done at $SECONDS s"
