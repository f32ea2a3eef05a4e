#!/usr/bin/env bash
# Session 28 M1: the parallel schedule. Plan hashes old (2443bb2) vs new on this 16-core host (analyze's
# candidates schedule on 2 threads each here); host tests; bench_sptrsv quick old vs new, alternated, three passes.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc
( JOBS=11 .run/setup3.sh "bench_sptrsv test_sptrsv_host test_sptrsv_gpu" new ) &
( JOBS=5 .run/setup3.sh bench_sptrsv old ) &
wait
echo "built at $SECONDS s"
for t in old new; do src=.; [ $t = old ] && src=.snapshot
  g++ -std=c++20 -O2 -I$src .run/analysis_ident.cpp build/$t/tasks/sptrsv/libapiary_sptrsv_host.a build/$t/sparse/libapiary_sparse.a -lz -lpthread -o /tmp/ident_$t || echo "ident $t build failed"; done
M=.matrices; L="$M/nh2010.mtx.gz $M/EX5.mtx.gz $M/cage10.mtx.gz $M/cs4.mtx.gz poisson2d:300 poisson2d:1000 poisson3d:100 blocks16x16000@0.1 blocks8x6000@1 blocks64x6000@1"
for t in old new; do LOWER=1 /tmp/ident_$t $L > $OUT/ident_$t.txt 2>&1; done
paste <(awk '{print $1, $3, $5}' $OUT/ident_old.txt) <(awk '{print $3, $5}' $OUT/ident_new.txt)
cmp <(awk '{print $1, $3}' $OUT/ident_old.txt) <(awk '{print $1, $3}' $OUT/ident_new.txt) && echo "PLANS IDENTICAL"
build/new/tests/tasks/sptrsv/test_sptrsv_host > /tmp/h.log 2>&1; echo "sptrsv host rc $? $(grep -E '^\[  PASSED|^\[  FAILED' /tmp/h.log)"
B=build/new/tests/tasks/sptrsv/test_sptrsv_gpu
for tool in racecheck synccheck; do APIARY_TEST_QUICK=1 timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 $B --gtest_filter='*tassl*' > /tmp/m.txt 2>&1; echo "$tool sptrsv tassl rc $? $(grep -E 'SUMMARY|PASSED|FAILED' /tmp/m.txt | tail -2 | tr '\n' ' ') at $SECONDS s"; tail -5 /tmp/m.txt > $OUT/${tool}_sptrsv.txt; done
for p in 1 2 3; do for t in old new; do
  timeout 100 build/$t/bench/bench_sptrsv --set quick --matrices .matrices --csv $OUT/sptrsv_${t}_$p.csv > /tmp/s.log 2>&1; echo "sptrsv $t p$p rc $? at $SECONDS s: $(tail -2 /tmp/s.log | head -1)"
  [ $p = 1 ] && cp /tmp/s.log $OUT/sptrsv_$t.log
done; done
sed -i "s#$PWD#.#g" $OUT/*
echo "all done at $SECONDS s"
