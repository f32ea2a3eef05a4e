#!/usr/bin/env bash
# Session 31 P7: the real Narrow loop in a plain kernel under shared-memory carve-outs; RCM with
# timing lines (newT), + no register cap (newMT), + 1 block per SM (newB1).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
bash .run/mkprobe2.sh . /tmp/probe2.cu
( cd /tmp && nvcc -O3 -std=c++20 -arch=sm_90 --expt-relaxed-constexpr -I$OLDPWD probe2.cu -o /tmp/probe2 ) 2>&1 | grep -m5 error &
( JOBS=6 .run/setup3.sh "bench_rcm" newT ) &
( JOBS=5 .run/setup3.sh "bench_rcm" newMT ) &
( JOBS=5 .run/setup3.sh "bench_rcm" newB1 ) &
wait
echo "built at $SECONDS s"
/tmp/probe2 1000 2>&1 | tee $OUT/p7_real_carveout.log
for t in newT newMT newB1 newT newMT newB1; do
  timeout 200 build/$t/bench/bench_rcm --no-shared --reps 2 >> $OUT/p7_rcm_$t.log 2>&1; echo "== rcm $t at $SECONDS s"
  grep -E "megakernel  " $OUT/p7_rcm_$t.log | tail -3
done
for t in newT newMT newB1; do echo $t; grep "^T bfs" $OUT/p7_rcm_$t.log | grep -E "levels (1999|298) " | awk "{print \$6, \$10, \$12}" | tr "\n" " "; echo; done
sed -i "s#$PWD#.#g" $OUT/*.log
echo "all done at $SECONDS s"
