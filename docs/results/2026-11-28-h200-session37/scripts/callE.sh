#!/usr/bin/env bash
# Session 37 E: Rank's state in shared memory (newQ = tree + patch_Q) against the tree (new):
# Rank's phases per level for both (newR, newQR: + clock64 probes), two bench passes each, newQ's tests.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
JOBS=4 .run/setup3.sh "bench_rcm" new newR newQR > /tmp/s1.txt 2>&1 &
JOBS=4 .run/setup3.sh "bench_rcm test_rcm_gpu" newQ > /tmp/s2.txt 2>&1 &
wait; cat /tmp/s1.txt /tmp/s2.txt
echo "built at $SECONDS s"
for t in newR newQR; do
  timeout 60 build/$t/bench/bench_rcm --no-shared --inputs poisson2d,poisson3d --methods "tasks megakernel" --reps 2 > $OUT/e_instr_$t.log 2>&1; echo "instr $t rc $? at $SECONDS s"
  grep -E "^RANK" $OUT/e_instr_$t.log | sort | uniq -c | sort -rn | head -4 | cut -c1-300
done
for pass in 1 2; do for t in new newQ; do
  timeout 90 build/$t/bench/bench_rcm --no-shared --inputs poisson2d,poisson3d --methods "tasks megakernel,tasks timesliced" --reps 5 > $OUT/e_${t}_$pass.log 2>&1
  echo "== $t pass $pass rc $? at $SECONDS s"; grep -E "tasks" $OUT/e_${t}_$pass.log | cut -c1-20,60-220
done; done
timeout 90 build/newQ/tests/tasks/rcm/test_rcm_gpu > $OUT/e_test_rcm_gpu_newQ.log 2>&1; echo "test_rcm_gpu newQ rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $OUT/e_test_rcm_gpu_newQ.log | tr '\n' ' ') at $SECONDS s"
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log 2>/dev/null
(cd $OUT && tar -cf e_logs.tar e_*.log && rm e_*.log)
echo "all done at $SECONDS s"
