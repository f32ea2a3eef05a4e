#!/usr/bin/env bash
# Session 43 call 2 (experiment): in-kernel timeline of tassl-deps (trace) and exact kernel durations (ncu).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
D=$OUT/c2; mkdir -p $D
JOBS=16 .run/setup3.sh "apiary" newX43
echo "built at $SECONDS s"
A=build/newX43/apps/apiary
for m in 494_bus cage10 commanche_dual cs4 nh2010; do
  APIARY_X_TRACE=$D/tr_$m timeout 30 $A sptrsv .matrices/$m.mtx.gz --lower --variant tassl-deps --reps 5 > $D/tr_$m.log 2>&1
  echo "trace $m rc $? at $SECONDS s"
  timeout 60 ncu --cache-control none --metrics gpu__time_duration.sum $A sptrsv .matrices/$m.mtx.gz --lower --variant tassl-deps,tassl-kernels,cusparse --reps 3 > $D/ncu_$m.txt 2>&1
  echo "ncu $m rc $? at $SECONDS s"
done
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g; s#$OUT#\$OUT#g" $D/*.log $D/*.txt 2>/dev/null
tar -czf $OUT/c2.tar.gz -C $OUT c2 && rm -rf $D
echo "all done at $SECONDS s"
