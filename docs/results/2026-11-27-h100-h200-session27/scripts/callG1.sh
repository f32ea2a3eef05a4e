#!/usr/bin/env bash
# Session 27 G1: main with the pollers merged. SpTRSV quick set alone (analysis vs cuSPARSE's),
# Jacobi autonomous by blocks per SM, Jacobi 10^7, PCG task loop under the sanitizers.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
git log --oneline -1 2>/dev/null
JOBS=16 .run/setup3.sh "bench_jacobi bench_sptrsv test_pcg_gpu" new
echo "built at $SECONDS s"
bash .run/regs.sh new | grep VariantE4
timeout 150 build/new/bench/bench_sptrsv --set quick --matrices .matrices --csv $OUT/sptrsv.csv > $OUT/sptrsv.log 2>&1; echo "sptrsv rc $? at $SECONDS s"; tail -2 $OUT/sptrsv.log | head -1
J=build/new/bench/bench_jacobi
S="--iterations 100 --reps 3 --nnz 1e4,1e5 --nnz-budget auto,512 --variants autonomous"
for p in 1 2; do for b in 0 1 2 3; do
  a=""; [ $b != 0 ] && a="--blocks-per-sm $b"
  timeout 60 $J $S $a > /tmp/j.log 2>&1; echo "== bps $b pass $p" >> $OUT/jacobi_bps.log; cat /tmp/j.log >> $OUT/jacobi_bps.log
  echo "bps $b p$p $(grep -E ' (graph|autonomous) ' /tmp/j.log | awk '{printf "%s %s %s %s | ", $1, $3, $6, $8}')"
done; done
echo "jacobi at $SECONDS s"
timeout 90 $J --iterations 50 --reps 3 --nnz 1e7 --spec poisson3d:150 --nnz-budget auto --variants autonomous > $OUT/jacobi_large.log 2>&1
grep -E ' (graph|autonomous) |bound' $OUT/jacobi_large.log | head -6
P=build/new/tests/tasks/pcg/test_pcg_gpu
for tool in memcheck synccheck racecheck; do
  APIARY_TEST_QUICK=1 timeout 120 compute-sanitizer --tool $tool --error-exitcode 3 $P --gtest_filter='*TaskLoop*' > /tmp/sp.txt 2>&1; echo "$tool pcg taskloop rc $? $(grep -E 'SUMMARY|PASSED|FAILED' /tmp/sp.txt | tail -2 | tr '\n' ' ') at $SECONDS s"; tail -3 /tmp/sp.txt >> $OUT/san_pcg.txt
done
sed -i "s#$PWD#.#g" $OUT/*
echo "all done at $SECONDS s"
