#!/usr/bin/env bash
# Session 30 O1: the chosen schedule's edges placed in ranges of rows (place_edges) against HEAD (.snapshot):
# analyze's steps on this host, analyze alone alternated, plan hashes.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nproc
JOBS=8 .run/setup3.sh "apiary_sptrsv_host apiary_sparse" old new
echo "built at $SECONDS s"
src() { case $1 in old) echo .snapshot;; new) echo .;; *) echo /tmp/src_$1;; esac; }
for t in old new; do
  D=""; [ $t = new ] && D=-DPLACE
  for x in analysis_ident steps anrep; do
    g++ -std=c++20 -O2 $D -I$(src $t) .run/$x.cpp build/$t/tasks/sptrsv/libapiary_sptrsv_host.a build/$t/sparse/libapiary_sparse.a -lz -lpthread -o /tmp/${x}_$t || echo "$x $t failed"
  done
done
echo "tools at $SECONDS s"
M=.matrices; L="$M/nh2010.mtx.gz $M/cage10.mtx.gz $M/cs4.mtx.gz poisson3d:40 poisson2d:1000 poisson3d:100 blocks16x1000@0.1 blocks16x16000@0.1 blocks8x6000@1 blocks64x6000@1"
for t in old new; do echo "== $t"; LOWER=1 /tmp/analysis_ident_$t $L > /tmp/id_$t.txt 2>&1; awk '{print $1, $3}' /tmp/id_$t.txt | md5sum; done | tee $OUT/o1_ident.txt
for m in $M/EX5.mtx.gz $M/nh2010.mtx.gz $M/cage10.mtx.gz blocks8x6000@1; do for t in old new; do echo "== $t"; /tmp/steps_$t $m 2>&1 | tail -10 | grep -v "^  n_max.*levels [0-9.]*$"; done; done > $OUT/o1_steps.txt; cat $OUT/o1_steps.txt
for p in 1 2 3; do for t in old new; do echo "== $t p$p"; for m in EX5 nh2010 cage10 cs4 commanche_dual; do /tmp/anrep_$t $M/$m.mtx.gz 20; done; /tmp/anrep_$t blocks8x6000@1 10; /tmp/anrep_$t poisson3d:100 5; done; done > $OUT/o1_anrep.txt 2>&1
cat $OUT/o1_anrep.txt
sed -i "s#$PWD#.#g; s#/root/out#OUT#g" $OUT/*.txt
echo "all done at $SECONDS s"
