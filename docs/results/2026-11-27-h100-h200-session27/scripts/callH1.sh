#!/usr/bin/env bash
# Session 27 H1: SpTRSV analysis, fce9b48 (old) vs af4f630+ (new), quick set alone, twice;
# newP: the TASSL set-up with probes (generated matrices only).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nproc
.run/setup3.sh bench_sptrsv old new newP
echo "built at $SECONDS s"
mkdir -p /tmp/none
timeout 100 build/newP/bench/bench_sptrsv --set quick --matrices /tmp/none --csv /tmp/p.csv > $OUT/setup_probe.log 2>&1; echo "probe rc $? at $SECONDS s"
for p in 1 2; do for t in old new; do
  timeout 100 build/$t/bench/bench_sptrsv --set quick --matrices .matrices --csv $OUT/sptrsv_${t}_$p.csv > /tmp/s.log 2>&1; echo "sptrsv $t p$p rc $? at $SECONDS s: $(tail -2 /tmp/s.log | head -1)"
  [ $p = 1 ] && cp /tmp/s.log $OUT/sptrsv_$t.log
done; done
sed -i "s#$PWD#.#g" $OUT/*
echo "all done at $SECONDS s"
