#!/usr/bin/env bash
# Session 36 A: per-level phases of the padded BFS (v1 = HEAD + clock64 instrumentation), and
# HEAD (old) against one barrier per padded level (new) and new + a filtered bitmap claim (newF).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
JOBS=4 .run/setup3.sh "bench_rcm" old v1 newF > /tmp/s1.txt 2>&1 &
JOBS=4 .run/setup3.sh "bench_rcm test_rcm_gpu" new > /tmp/s2.txt 2>&1 &
wait; cat /tmp/s1.txt /tmp/s2.txt
echo "built at $SECONDS s"
timeout 60 build/new/tests/tasks/rcm/test_rcm_gpu > $OUT/a_test_rcm_gpu.log 2>&1; echo "test_rcm_gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $OUT/a_test_rcm_gpu.log | tr '\n' ' ') at $SECONDS s"
timeout 60 build/v1/bench/bench_rcm --no-shared --inputs poisson2d,poisson3d --methods "tasks megakernel" --reps 2 > $OUT/a_instr.log 2>&1; echo "instr rc $? at $SECONDS s"
grep -E "^NARROW" $OUT/a_instr.log | sort | uniq -c | sort -rn | head -4
grep -E "^NARROW|^RANK" $OUT/a_instr.log | tail -14 | cut -c1-400
grep -E "megakernel" $OUT/a_instr.log | cut -c1-20,60-220
for pass in 1 2; do for t in old new newF; do
  timeout 90 build/$t/bench/bench_rcm --no-shared --inputs poisson2d,poisson3d --methods "tasks megakernel,tasks megakernel no padding" --reps 5 > $OUT/a_${t}_$pass.log 2>&1
  echo "== $t pass $pass rc $? at $SECONDS s"; grep -E "megakernel" $OUT/a_${t}_$pass.log | cut -c1-20,60-220
done; done
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log 2>/dev/null
echo "all done at $SECONDS s"
