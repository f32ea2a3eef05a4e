#!/usr/bin/env bash
# Session 29 N2: which of cf0fe57 / 61ea2ef made the analysis slower on the 16-core host (N1).
# analyze alone (analysis_ident), alternated: old = 0e7aedd, v1 = cf0fe57, new = HEAD, newR0 = HEAD
# with cf0fe57 reverted. Then the set-up's split (newU: timing prints in TasslSolver) on the quick set.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
which nsys || ls /usr/local/cuda/bin | grep -i nsys || echo "no nsys"
( JOBS=3 .run/setup3.sh apiary_sptrsv_host old v1 new newR0 ) &
( JOBS=4 .run/setup3.sh bench_sptrsv newU ) &
wait
echo "built at $SECONDS s"
src() { case $1 in old) echo .snapshot;; v1) echo .snapshot1;; new) echo .;; *) echo /tmp/src_$1;; esac; }
for t in old v1 new newR0; do
  g++ -std=c++20 -O2 -I$(src $t) .run/analysis_ident.cpp build/$t/tasks/sptrsv/libapiary_sptrsv_host.a build/$t/sparse/libapiary_sparse.a -lz -lpthread -o /tmp/ident_$t || echo "ident $t build failed"
done
M=.matrices; L="$M/nh2010.mtx.gz $M/cage10.mtx.gz $M/cs4.mtx.gz poisson3d:40 poisson2d:1000 poisson3d:100 blocks16x1000@0.1 blocks16x16000@0.1 blocks8x6000@1 blocks64x6000@1"
for p in 1 2 3 4 5 6; do for t in old v1 new newR0; do
  LOWER=1 /tmp/ident_$t $L > /tmp/id_${t}_$p.txt 2>&1
done; done
for t in old v1 new newR0; do echo "== $t"; for p in 1 2 3 4 5 6; do awk '{printf "%s ", $5}' /tmp/id_${t}_$p.txt; echo; done; awk '{print $1, $3}' /tmp/id_${t}_1.txt | md5sum; done | tee $OUT/n2_ident.txt
head -12 /tmp/id_new_1.txt >> $OUT/n2_ident.txt
timeout 100 build/newU/bench/bench_sptrsv --set quick --matrices .matrices --csv /tmp/sptrsv_newU.csv > /tmp/s.log 2> $OUT/n2_setup_times.txt; echo "bench newU rc $?"; cp /tmp/s.log $OUT/n2_sptrsv_newU.log
cat $OUT/n2_setup_times.txt
sed -i "s#$PWD#.#g; s#/root/out#OUT#g" $OUT/*.log $OUT/*.txt
echo "all done at $SECONDS s"
