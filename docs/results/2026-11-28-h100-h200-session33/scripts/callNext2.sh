#!/usr/bin/env bash
# For the next session (not run in session 33): Jacobi's megakernel at 64 registers and 4 blocks per SM (newJ4,
# patch_J4.sh) against the tree (old) at 10^7 non-zeros, where the goal (1.3x the bandwidth bound) is far, and the
# 10^5 goal (1.2x graph) with one budget more (768: about one row task per SM). Copy to .run/ with session 32's scripts/setup3.sh.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
( JOBS=8 .run/setup3.sh "bench_jacobi" newJ4 ) &
( JOBS=8 .run/setup3.sh "bench_jacobi" old ) &
wait
echo "built at $SECONDS s"
for t in old newJ4 old newJ4; do
  [ $SECONDS -gt 420 ] && { echo "stopped before $t (time)"; break; }
  # blocks per SM: the default rule (about one per row task, at most what fits: 3 at 80 registers, 4 at 64)
  timeout 120 build/$t/bench/bench_jacobi --iterations 50 --reps 3 --nnz 1e7 --spec poisson3d:150 --variants autonomous \
    --nnz-budget auto,32768,49152 --row-budget 16384 >> $OUT/j_10e7_$t.log 2>&1
  echo "== jacobi 10^7 $t at $SECONDS s"; grep -E "autonomous|graph|bound" $OUT/j_10e7_$t.log | tail -12 | cut -c1-160
done
timeout 120 build/old/bench/bench_jacobi --iterations 100 --reps 3 --nnz 1e4,1e5 --nnz-budget auto,512,768,1024 \
  --variants autonomous > $OUT/j_small_old.log 2>&1; echo "== jacobi small at $SECONDS s"; tail -20 $OUT/j_small_old.log | cut -c1-160
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log 2>/dev/null
echo "all done at $SECONDS s"
