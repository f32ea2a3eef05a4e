#!/usr/bin/env bash
# Session 43 call 1 (experiment): where tassl-deps' fixed cost per run goes (.run/patch_X43.sh).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
D=$OUT/c1; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
JOBS=16 .run/setup3.sh "bench_sptrsv bench_runtime" newX43
echo "built at $SECONDS s"
B=build/newX43/bench
ONLY='nh2010,cs4,commanche_dual,cage10,EX5,blocks16x1000@0.1%,494_bus,poisson3d:40,bcsstk13,lund_a'
run() { local tag=$1; shift
  env "$@" timeout 60 $B/bench_sptrsv --set quick --matrices .matrices --reps 9 --only "$ONLY" --csv $D/q_$tag.csv > $D/q_$tag.log 2>&1
  echo "$tag rc $? at $SECONDS s"; }
run base X_=0
run noev APIARY_X_NOEVENTS=1
run cap APIARY_X_CAP=1
run capnoev APIARY_X_CAP=1 APIARY_X_NOEVENTS=1
run base2 X_=0
run probe APIARY_X_PROBE=1
run capprobe APIARY_X_CAP=1 APIARY_X_PROBE=1
for cfg in "X_=0" "APIARY_X_NOEVENTS=1" "APIARY_X_BLOCKS=1" "APIARY_X_BLOCKS=1 APIARY_X_NOEVENTS=1" "APIARY_X_BLOCKS=16"; do
  echo "== $cfg" >> $D/runtime.log
  env $cfg timeout 40 $B/bench_runtime --scheduler megakernel --reps 5 --tasks 65536 --chain 200 >> $D/runtime.log 2>&1
  echo "runtime [$cfg] rc $? at $SECONDS s"
done
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g; s#$OUT#\$OUT#g" $D/* 2>/dev/null
tar -czf $OUT/c1.tar.gz -C $OUT c1 && rm -rf $D
echo "all done at $SECONDS s"
