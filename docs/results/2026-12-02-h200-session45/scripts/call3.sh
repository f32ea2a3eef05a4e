#!/usr/bin/env bash
# Session 45 call 3: the state of issues 5 and 7 on one machine. bench_runtime (the empty
# launch floor), the sptrsv quick set twice, Jacobi at 10^4/10^5 and at 10^7, the sptrsv full set.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
D=$OUT/c3; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt; git log --oneline -1 >> $D/gpu.txt 2>/dev/null
.run/setup.sh "apiary bench_sptrsv bench_jacobi bench_runtime" || { cp /tmp/b_new.log $D/; exit 1; }
echo "built at $SECONDS s"
B=build/new/bench
timeout 40 $B/bench_runtime --scheduler megakernel --reps 5 > $D/runtime.log 2>&1; echo "runtime rc $? at $SECONDS s"
grep -i -E "empty|one task" $D/runtime.log | cut -c1-160
for p in 1 2; do
  timeout 60 $B/bench_sptrsv --set quick --matrices .matrices --reps 7 --csv $D/quick$p.csv > $D/quick$p.log 2>&1
  echo "quick $p rc $? at $SECONDS s: $(tail -2 $D/quick$p.log | head -1)"
done
timeout 60 $B/bench_jacobi --iterations 100 --reps 3 --nnz 1e4,1e5 --nnz-budget auto,512 --variants autonomous,checkpoints,stages-deps,stages-phases,kernels,graph > $D/jacobi_small.log 2>&1
echo "jacobi small rc $? at $SECONDS s"
timeout 90 $B/bench_jacobi --iterations 50 --reps 3 --nnz 1e7 --spec poisson3d:150 --nnz-budget auto,16384,65536 --row-budget 16384 --variants autonomous,checkpoints,kernels,graph > $D/jacobi_large.log 2>&1
echo "jacobi large rc $? at $SECONDS s"
left=$((575 - SECONDS))
timeout $left $B/bench_sptrsv --set full --matrices .matrices --reps 5 --csv $D/full.csv > $D/full.log 2>&1
echo "full rc $? at $SECONDS s: $(tail -3 $D/full.log | tr '\n' ' ')"
sed -i "s#$PWD#.#g; s#$OUT#\$OUT#g" $D/* 2>/dev/null
tar -czf $OUT/c3.tar.gz -C $OUT c3 && rm -rf $D
echo "all done at $SECONDS s"
