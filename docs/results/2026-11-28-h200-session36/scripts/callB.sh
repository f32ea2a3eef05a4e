#!/usr/bin/env bash
# Session 36 B: Rank's phases per level (newR = tree + clock64 in rank_level), and Rank's L1 prefetch (newP) against the tree (new).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
JOBS=5 .run/setup3.sh "bench_rcm" new newR newP
echo "built at $SECONDS s"
timeout 60 build/newR/bench/bench_rcm --no-shared --inputs poisson2d,poisson3d --methods "tasks megakernel" --reps 2 > $OUT/b_instr.log 2>&1; echo "instr rc $? at $SECONDS s"
grep -E "^RANK" $OUT/b_instr.log | sort | uniq -c | sort -rn | head -6 | cut -c1-300
for pass in 1 2; do for t in new newP; do
  timeout 90 build/$t/bench/bench_rcm --no-shared --inputs poisson2d,poisson3d --methods "tasks megakernel" --reps 5 > $OUT/b_${t}_$pass.log 2>&1
  echo "== $t pass $pass rc $? at $SECONDS s"; grep -E "megakernel" $OUT/b_${t}_$pass.log | cut -c1-20,60-220
done; done
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log 2>/dev/null
echo "all done at $SECONDS s"
