#!/usr/bin/env bash
# Session 30 O3: old = HEAD (.snapshot); newP = edges placed in ranges of rows (std::async ranges);
# new = the same with for_each_range on OpenMP. analyze alone alternated (new also with OMP_WAIT_POLICY=passive),
# plan hashes, bench_sptrsv quick alternated.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nproc
JOBS=5 .run/setup3.sh "bench_sptrsv apiary_sptrsv_host apiary_sparse" old new newP
echo "built at $SECONDS s"
src() { case $1 in old) echo .snapshot;; new) echo .;; *) echo /tmp/src_$1;; esac; }
for t in old new newP; do
  for x in analysis_ident anrep; do
    g++ -std=c++20 -O2 -fopenmp -I$(src $t) .run/$x.cpp build/$t/tasks/sptrsv/libapiary_sptrsv_host.a build/$t/sparse/libapiary_sparse.a -lz -lpthread -o /tmp/${x}_$t || echo "$x $t failed"
  done
done
echo "tools at $SECONDS s"
M=.matrices; L="$M/nh2010.mtx.gz $M/cage10.mtx.gz $M/cs4.mtx.gz poisson3d:40 poisson2d:1000 poisson3d:100 blocks16x1000@0.1 blocks16x16000@0.1 blocks8x6000@1 blocks64x6000@1"
for t in old new newP; do echo "== $t"; LOWER=1 /tmp/analysis_ident_$t $L > /tmp/id_$t.txt 2>&1; awk '{print $1, $3}' /tmp/id_$t.txt | md5sum; done | tee $OUT/o3_ident.txt
run() { for m in EX5 nh2010 cage10 cs4 commanche_dual; do /tmp/anrep_$1 $M/$m.mtx.gz 20; done; /tmp/anrep_$1 blocks16x1000@0.1 20; /tmp/anrep_$1 blocks8x6000@1 10; /tmp/anrep_$1 poisson3d:100 5; }
for p in 1 2; do for t in old newP new; do echo "== $t p$p"; run $t; done; echo "== new passive p$p"; OMP_WAIT_POLICY=passive run new; done > $OUT/o3_anrep.txt 2>&1
echo "anrep at $SECONDS s"
for p in 1 2; do for t in old new newP; do
  timeout 100 build/$t/bench/bench_sptrsv --set quick --matrices .matrices --csv /tmp/sptrsv_${t}_$p.csv > /tmp/s.log 2>&1; echo "sptrsv $t p$p rc $? at $SECONDS s: $(tail -2 /tmp/s.log | head -1)"
  [ $p = 1 ] && cp /tmp/s.log $OUT/o3_sptrsv_$t.log
done; done
tar -czf $OUT/o3_csv.tgz -C /tmp $(cd /tmp && ls sptrsv_*.csv)
sed -i "s#$PWD#.#g; s#/root/out#OUT#g" $OUT/*.txt $OUT/*.log
python3 .run/ratios.py /tmp/sptrsv_*.csv | tee $OUT/o3_ratios.txt
echo "all done at $SECONDS s"
