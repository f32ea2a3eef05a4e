#!/usr/bin/env bash
# Session 29 N1: cf0fe57 + 61ea2ef (parents as positions; levels from the slots pass) measured: old = 0e7aedd (.snapshot), new = HEAD.
# frontiers from the row levels, no row read for the slots). Phase times on this host (newT: HEAD + timing prints), plan hashes,
# host tests; bench_sptrsv quick old (bafd81b) / new, alternated, four passes; sptrsv and PCG GPU tests.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc
( JOBS=5 .run/setup3.sh "apiary_sptrsv_host test_sptrsv_host" newT ) &
( JOBS=6 .run/setup3.sh "bench_sptrsv test_sptrsv_gpu test_pcg_gpu" new ) &
( JOBS=5 .run/setup3.sh bench_sptrsv old ) &
wait
echo "built at $SECONDS s"
g++ -std=c++20 -O2 -I/tmp/src_newT .run/analysis_ident.cpp build/newT/tasks/sptrsv/libapiary_sptrsv_host.a build/newT/sparse/libapiary_sparse.a -lz -lpthread -o /tmp/ident_new || echo "ident build failed"
M=.matrices; L="$M/nh2010.mtx.gz $M/EX5.mtx.gz $M/cage10.mtx.gz $M/cs4.mtx.gz poisson2d:300 poisson2d:1000 poisson3d:100 blocks16x16000@0.1 blocks8x6000@1 blocks64x6000@1"
LOWER=1 /tmp/ident_new $L > $OUT/ident_new.txt 2>&1; cat $OUT/ident_new.txt
build/newT/tests/tasks/sptrsv/test_sptrsv_host > /tmp/h.log 2>&1; echo "sptrsv host rc $? $(grep -E '^\[  PASSED|^\[  FAILED' /tmp/h.log)"
for p in 1 2 3 4; do for t in old new; do
  timeout 100 build/$t/bench/bench_sptrsv --set quick --matrices .matrices --csv /tmp/sptrsv_${t}_$p.csv > /tmp/s.log 2>&1; echo "sptrsv $t p$p rc $? at $SECONDS s: $(tail -2 /tmp/s.log | head -1)"
  [ $p = 1 ] && cp /tmp/s.log $OUT/sptrsv_$t.log
done; done
for t in sptrsv pcg; do timeout 150 build/new/tests/tasks/$t/test_${t}_gpu > /tmp/g.log 2>&1; echo "$t gpu rc $? $(grep -E "^\[  PASSED|^\[  FAILED" /tmp/g.log) at $SECONDS s"; done
tar -czf $OUT/csv.tgz -C /tmp $(cd /tmp && ls sptrsv_*.csv)
sed -i "s#$PWD#.#g; s#/root/out#OUT#g" $OUT/*.log $OUT/*.txt
echo "all done at $SECONDS s"
