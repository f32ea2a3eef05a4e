#!/usr/bin/env bash
# Session 29 N5: old = e0e8c1b (N3's new) vs new = HEAD (plan rewrites the schedule's edges in place,
# packed sort keys) vs newC = HEAD with every candidate's slots pass on all threads. analyze's steps
# on this host (steps.cpp), plan hashes, bench alternated, sptrsv/pcg GPU tests.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc
( JOBS=6 .run/setup3.sh "bench_sptrsv test_sptrsv_gpu test_pcg_gpu" new ) &
( JOBS=5 .run/setup3.sh bench_sptrsv old newC ) &
wait
echo "built at $SECONDS s"
src() { case $1 in old) echo .snapshot;; new) echo .;; *) echo /tmp/src_$1;; esac; }
for t in old new newC; do
  g++ -std=c++20 -O2 -I$(src $t) .run/analysis_ident.cpp build/$t/tasks/sptrsv/libapiary_sptrsv_host.a build/$t/sparse/libapiary_sparse.a -lz -lpthread -o /tmp/ident_$t || echo "ident $t failed"
done
g++ -std=c++20 -O2 -I. .run/steps.cpp build/new/tasks/sptrsv/libapiary_sptrsv_host.a build/new/sparse/libapiary_sparse.a -lz -lpthread -o /tmp/steps || echo "steps failed"
M=.matrices; L="$M/nh2010.mtx.gz $M/cage10.mtx.gz $M/cs4.mtx.gz poisson3d:40 poisson2d:1000 poisson3d:100 blocks16x1000@0.1 blocks16x16000@0.1 blocks8x6000@1 blocks64x6000@1"
for p in 1 2 3; do for t in old new newC; do LOWER=1 /tmp/ident_$t $L > /tmp/id_${t}_$p.txt 2>&1; done; done
for t in old new newC; do echo "== $t"; for p in 1 2 3; do awk '{printf "%s ", $5}' /tmp/id_${t}_$p.txt; echo; done; awk '{print $1, $3}' /tmp/id_${t}_1.txt | md5sum; done | tee $OUT/n5_ident.txt
for m in blocks8x6000@1 poisson3d:100 $M/nh2010.mtx.gz blocks16x16000@0.1; do /tmp/steps $m 2>&1 | tail -10; done > $OUT/n5_steps.txt; cat $OUT/n5_steps.txt
for p in 1 2 3; do for t in old new newC; do
  timeout 100 build/$t/bench/bench_sptrsv --set quick --matrices .matrices --csv /tmp/sptrsv_${t}_$p.csv > /tmp/s.log 2>&1; echo "sptrsv $t p$p rc $? at $SECONDS s: $(tail -2 /tmp/s.log | head -1)"
  [ $p = 1 ] && cp /tmp/s.log $OUT/n5_sptrsv_$t.log
done; done
for t in sptrsv pcg; do timeout 150 build/new/tests/tasks/$t/test_${t}_gpu > /tmp/g.log 2>&1; echo "$t gpu rc $? $(grep -E "^\[  PASSED|^\[  FAILED" /tmp/g.log) at $SECONDS s"; done
tar -czf $OUT/csv.tgz -C /tmp $(cd /tmp && ls sptrsv_*.csv)
sed -i "s#$PWD#.#g; s#/root/out#OUT#g" $OUT/*.log $OUT/*.txt
echo "all done at $SECONDS s"
