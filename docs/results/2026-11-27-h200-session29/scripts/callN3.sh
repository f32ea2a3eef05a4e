#!/usr/bin/env bash
# Session 29 N3: old = c4d66da (HEAD, 61ea2ef reverted) vs new = working tree (out-degrees instead of
# children lists, lean row levels, components on several threads, orders' arrays uninitialised; the
# pinned-block cache behind MappedHostBuffer). Input pieces on this host, plan hashes, bench alternated,
# GPU tests (runtime, sptrsv, pcg), memcheck of the mapped-block tests.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc
( JOBS=10 .run/setup3.sh "bench_sptrsv test_sptrsv_gpu test_pcg_gpu test_runtime_gpu test_sparse test_sptrsv_host" new ) &
( JOBS=6 .run/setup3.sh bench_sptrsv old ) &
wait
echo "built at $SECONDS s"
for t in old new; do s=.; [ $t = old ] && s=.snapshot
  g++ -std=c++20 -O2 -I$s .run/analysis_ident.cpp build/$t/tasks/sptrsv/libapiary_sptrsv_host.a build/$t/sparse/libapiary_sparse.a -lz -lpthread -o /tmp/ident_$t || echo "ident $t failed"
  g++ -std=c++20 -O2 -I$s .run/inparts.cpp build/$t/tasks/sptrsv/libapiary_sptrsv_host.a build/$t/sparse/libapiary_sparse.a -lz -lpthread -o /tmp/inparts_$t || echo "inparts $t failed"
done
M=.matrices; L="$M/nh2010.mtx.gz $M/cage10.mtx.gz $M/cs4.mtx.gz poisson3d:40 poisson2d:1000 poisson3d:100 blocks16x1000@0.1 blocks16x16000@0.1 blocks8x6000@1 blocks64x6000@1"
for p in 1 2 3; do for t in old new; do LOWER=1 /tmp/ident_$t $L > /tmp/id_${t}_$p.txt 2>&1; done; done
for t in old new; do echo "== $t"; for p in 1 2 3; do awk '{printf "%s ", $5}' /tmp/id_${t}_$p.txt; echo; done; awk '{print $1, $3}' /tmp/id_${t}_1.txt | md5sum; done | tee $OUT/n3_ident.txt
for m in poisson3d:100 blocks16x16000@0.1; do for t in old new; do echo "$t $(/tmp/inparts_$t $m | tail -2 | tr '\n' ' ')"; done; done | tee -a $OUT/n3_ident.txt
build/new/tests/sparse/test_sparse > /tmp/h.log 2>&1; echo "sparse host rc $? $(grep -E '^\[  PASSED|^\[  FAILED' /tmp/h.log)"
build/new/tests/tasks/sptrsv/test_sptrsv_host > /tmp/h.log 2>&1; echo "sptrsv host rc $? $(grep -E '^\[  PASSED|^\[  FAILED' /tmp/h.log)"
for p in 1 2 3 4; do for t in old new; do
  timeout 100 build/$t/bench/bench_sptrsv --set quick --matrices .matrices --csv /tmp/sptrsv_${t}_$p.csv > /tmp/s.log 2>&1; echo "sptrsv $t p$p rc $? at $SECONDS s: $(tail -2 /tmp/s.log | head -1)"
  [ $p = 1 ] && cp /tmp/s.log $OUT/n3_sptrsv_$t.log
done; done
timeout 200 build/new/tests/runtime/test_runtime_gpu > /tmp/g.log 2>&1; echo "runtime gpu rc $? $(grep -E "^\[  PASSED|^\[  FAILED" /tmp/g.log) at $SECONDS s"; grep -E "FAILED|Failure" /tmp/g.log | head
for t in sptrsv pcg; do timeout 150 build/new/tests/tasks/$t/test_${t}_gpu > /tmp/g.log 2>&1; echo "$t gpu rc $? $(grep -E "^\[  PASSED|^\[  FAILED" /tmp/g.log) at $SECONDS s"; done
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 build/new/tests/runtime/test_runtime_gpu --gtest_filter='MappedBlocks*:HostUpload*' > /tmp/ms.log 2>&1; echo "memcheck mapped rc $? $(grep -E 'ERROR SUMMARY|^\[  PASSED|^\[  FAILED' /tmp/ms.log | tr '\n' ' ') at $SECONDS s"
tar -czf $OUT/csv.tgz -C /tmp $(cd /tmp && ls sptrsv_*.csv)
sed -i "s#$PWD#.#g; s#/root/out#OUT#g" $OUT/*.log $OUT/*.txt
echo "all done at $SECONDS s"
