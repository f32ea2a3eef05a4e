#!/usr/bin/env bash
# Session 30 O8: old = a258b39 (= 6d6d7da + docs; .snapshot), new = + passes side by side through the pool instead of std::async,
# and the candidates' slots in ranges of 2^13 vertices (was 2^16). Plan hashes, analyze steps,
# analyze alone alternated, bench_sptrsv quick alternated (3 passes).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
rm -f /tmp/sptrsv_*.csv
export PATH=/usr/local/cuda/bin:$PATH
nproc
JOBS=8 .run/setup3.sh "bench_sptrsv apiary_sptrsv_host apiary_sparse" old new
echo "built at $SECONDS s"
src() { case $1 in old) echo .snapshot;; v1) echo .snapshot1;; new) echo .;; *) echo /tmp/src_$1;; esac; }
for t in old new; do
  D=-DPLACE
  for x in analysis_ident anrep steps; do
    g++ -std=c++20 -O2 $D -I$(src $t) .run/$x.cpp build/$t/tasks/sptrsv/libapiary_sptrsv_host.a build/$t/sparse/libapiary_sparse.a -lz -lpthread -o /tmp/${x}_$t || echo "$x $t failed"
  done
done
echo "tools at $SECONDS s"
M=.matrices; L="$M/nh2010.mtx.gz $M/cage10.mtx.gz $M/cs4.mtx.gz poisson3d:40 poisson2d:1000 poisson3d:100 blocks16x1000@0.1 blocks16x16000@0.1 blocks8x6000@1 blocks64x6000@1"
for t in old new; do echo "== $t"; LOWER=1 /tmp/analysis_ident_$t $L > /tmp/id_$t.txt 2>&1; awk '{print $1, $3}' /tmp/id_$t.txt | md5sum; done | tee $OUT/o8_ident.txt
for m in $M/EX5.mtx.gz $M/nh2010.mtx.gz $M/cage10.mtx.gz blocks8x6000@1 poisson3d:100; do for t in old new; do echo "== $t"; /tmp/steps_$t $m 2>&1 | tail -10 | grep -v "^  n_max.*levels [0-9.]*$"; done; done > $OUT/o8_steps.txt
run() { for m in EX5 nh2010 cage10 cs4 commanche_dual; do /tmp/anrep_$1 $M/$m.mtx.gz 20; done; /tmp/anrep_$1 blocks16x1000@0.1 20; /tmp/anrep_$1 blocks8x6000@1 10; /tmp/anrep_$1 poisson3d:100 5; }
for p in 1 2 3; do for t in old new; do echo "== $t p$p"; run $t; done; done > $OUT/o8_anrep.txt 2>&1
echo "anrep at $SECONDS s"
for p in 1 2 3; do for t in old new; do
  timeout 100 build/$t/bench/bench_sptrsv --set quick --matrices .matrices --csv /tmp/sptrsv_${t}_$p.csv > /tmp/s.log 2>&1; echo "sptrsv $t p$p rc $? at $SECONDS s: $(tail -2 /tmp/s.log | head -1)"
  [ $p = 1 ] && cp /tmp/s.log $OUT/o8_sptrsv_$t.log
done; done
JOBS=16 .run/setup3.sh "test_sptrsv_gpu test_pcg_gpu test_sptrsv_host" new
for t in test_sptrsv_host test_sptrsv_gpu test_pcg_gpu; do f=$(find build/new/tests -name $t -type f | head -1); timeout 150 $f > /tmp/g.log 2>&1; echo "$t rc $? $(grep -E "^\[  PASSED|^\[  FAILED" /tmp/g.log) at $SECONDS s"; done
B=build/new/tests/tasks/sptrsv/test_sptrsv_gpu
APIARY_TEST_QUICK=1 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 3 $B --gtest_filter="*tassl*" > /tmp/m.txt 2>&1; echo "memcheck sptrsv tassl rc $? $(grep -E "SUMMARY|PASSED|FAILED" /tmp/m.txt | tail -2 | tr "\n" " ") at $SECONDS s"; tail -5 /tmp/m.txt > $OUT/o8_memcheck_sptrsv_tassl.txt
tar -czf $OUT/o8_csv.tgz -C /tmp $(cd /tmp && ls sptrsv_*.csv)
sed -i "s#$PWD#.#g; s#/root/out#OUT#g" $OUT/*.txt $OUT/*.log
python3 .run/ratios.py /tmp/sptrsv_*.csv | tee $OUT/o8_ratios.txt
echo "all done at $SECONDS s"
