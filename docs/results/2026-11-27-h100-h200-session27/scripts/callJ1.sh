#!/usr/bin/env bash
# Session 27 J1: the set-up's device packing and the analysis's side threads: sptrsv and PCG GPU
# tests, memcheck, bench_sptrsv quick fce9b48 (old) vs new, twice.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
( JOBS=11 .run/setup3.sh "bench_sptrsv test_sptrsv_gpu test_pcg_gpu test_baselines_gpu" new ) &
( JOBS=5 .run/setup3.sh bench_sptrsv old ) &
wait
echo "built at $SECONDS s"
run() { local name=$1; shift; timeout 150 "$@" > /tmp/$name.log 2>&1; echo "$name rc $? $(grep -E '^\[  PASSED|^\[  FAILED|tests? skipped' /tmp/$name.log | head -3 | tr '\n' ' ') at $SECONDS s"; grep -E "^\[  FAILED" /tmp/$name.log | head -5; }
B=build/new/tests/tasks
run sptrsv_gpu $B/sptrsv/test_sptrsv_gpu
run pcg_gpu $B/pcg/test_pcg_gpu
APIARY_TEST_QUICK=1 timeout 120 compute-sanitizer --tool memcheck --error-exitcode 3 $B/sptrsv/test_sptrsv_gpu --gtest_filter='*tassl*' > /tmp/m.txt 2>&1; echo "memcheck sptrsv tassl rc $? $(grep -E 'SUMMARY|PASSED|FAILED' /tmp/m.txt | tail -2 | tr '\n' ' ') at $SECONDS s"; tail -5 /tmp/m.txt > $OUT/memcheck_sptrsv.txt
for p in 1 2; do for t in old new; do
  timeout 100 build/$t/bench/bench_sptrsv --set quick --matrices .matrices --csv $OUT/sptrsv_${t}_$p.csv > /tmp/s.log 2>&1; echo "sptrsv $t p$p rc $? at $SECONDS s: $(tail -2 /tmp/s.log | head -1)"
  [ $p = 1 ] && cp /tmp/s.log $OUT/sptrsv_$t.log
done; done
sed -i "s#$PWD#.#g" $OUT/*
echo "all done at $SECONDS s"
