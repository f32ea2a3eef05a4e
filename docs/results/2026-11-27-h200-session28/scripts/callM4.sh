#!/usr/bin/env bash
# Session 28 M4: predecessor lists in ranges, 2^13 ranges after the candidates. Analysis phase times on this host (newT), and
# bench_sptrsv quick old (bafd81b) / newT / new (HEAD, no timing prints)
# alternated, three passes; plan hashes of newT.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc
( JOBS=6 .run/setup3.sh "bench_sptrsv test_sptrsv_host" newT ) &
( JOBS=5 .run/setup3.sh "bench_sptrsv test_sptrsv_gpu" new ) &
( JOBS=5 .run/setup3.sh bench_sptrsv old ) &
wait
echo "built at $SECONDS s"
g++ -std=c++20 -O2 -I/tmp/src_newT .run/analysis_ident.cpp build/newT/tasks/sptrsv/libapiary_sptrsv_host.a build/newT/sparse/libapiary_sparse.a -lz -lpthread -o /tmp/ident_new || echo "ident build failed"
M=.matrices; L="$M/nh2010.mtx.gz $M/EX5.mtx.gz $M/cage10.mtx.gz $M/cs4.mtx.gz poisson2d:300 poisson2d:1000 poisson3d:100 blocks16x16000@0.1 blocks8x6000@1 blocks64x6000@1"
LOWER=1 /tmp/ident_new $L > $OUT/ident_new.txt 2>&1; cat $OUT/ident_new.txt
build/newT/tests/tasks/sptrsv/test_sptrsv_host > /tmp/h.log 2>&1; echo "sptrsv host rc $? $(grep -E '^\[  PASSED|^\[  FAILED' /tmp/h.log)"
for p in 1 2 3; do for t in old newT new; do
  timeout 100 build/$t/bench/bench_sptrsv --set quick --matrices .matrices --csv /tmp/sptrsv_${t}_$p.csv > /tmp/s.log 2>&1; echo "sptrsv $t p$p rc $? at $SECONDS s: $(tail -2 /tmp/s.log | head -1)"
  [ $p = 1 ] && cp /tmp/s.log $OUT/sptrsv_$t.log
done; done
timeout 200 build/new/tests/tasks/sptrsv/test_sptrsv_gpu > /tmp/g.log 2>&1; echo "sptrsv gpu rc $? $(grep -E "^\[  PASSED|^\[  FAILED" /tmp/g.log)"
tar -czf $OUT/csv.tgz -C /tmp $(cd /tmp && ls sptrsv_*.csv)
sed -i "s#$PWD#.#g; s#/root/out#OUT#g" $OUT/*.log $OUT/*.txt
echo "all done at $SECONDS s"
