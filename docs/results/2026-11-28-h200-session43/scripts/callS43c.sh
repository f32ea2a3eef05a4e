#!/usr/bin/env bash
# Session 43 call 3 (experiment): the megakernel's own start and end in the trace; the carve-out hypothesis.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
D=$OUT/c3; mkdir -p $D
JOBS=16 .run/setup3.sh "apiary bench_sptrsv" newX43
echo "built at $SECONDS s"
A=build/newX43/apps/apiary
for m in 494_bus cage10 commanche_dual; do
  APIARY_X_TRACE=$D/tr_$m timeout 30 $A sptrsv .matrices/$m.mtx.gz --lower --variant tassl-deps --reps 5 > $D/tr_$m.log 2>&1
  echo "trace $m rc $? at $SECONDS s"
done
ONLY='nh2010,cs4,commanche_dual,cage10,blocks16x1000@0.1%,494_bus'
for cfg in "X_=0" "APIARY_X_CARVE=1" "APIARY_X_CARVE=1 APIARY_X_NOEVENTS=1" "APIARY_X_NOEVENTS=1"; do
  tag=$(echo "$cfg" | tr ' =' '__')
  env $cfg timeout 60 build/newX43/bench/bench_sptrsv --set quick --matrices .matrices --reps 9 --only "$ONLY" --csv $D/q_$tag.csv > $D/q_$tag.log 2>&1
  echo "$cfg rc $? at $SECONDS s"
done
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g; s#$OUT#\$OUT#g" $D/*.log 2>/dev/null
tar -czf $OUT/c3.tar.gz -C $OUT c3 && rm -rf $D
echo "all done at $SECONDS s"
