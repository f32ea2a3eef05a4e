#!/usr/bin/env bash
# Session 20 T7: where bench_jacobi (old = 069f5cb) stops at 10^7 dd, budget 65536/1024: host stacks of a run that outlives 45 s.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=16 .run/setup3.sh "bench_jacobi" old
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
which gdb cuda-gdb 2>&1 | head -2
for i in 1 2 3 4; do
  build/old/bench/bench_jacobi --iterations 50 --reps 3 --nnz 1e7 --nnz-budget 4096,65536 --row-budget 1024,16384 --spec poisson3d:150 --variants autonomous,stages-deps,checkpoints > $OUT/run_$i.log 2>&1 &
  pid=$!
  for s in $(seq 1 45); do sleep 1; kill -0 $pid 2>/dev/null || break; done
  if kill -0 $pid 2>/dev/null; then
    echo "run $i still running after 45 s: $(tail -1 $OUT/run_$i.log | cut -c1-120)"
    gdb -p $pid -batch -ex "thread apply all bt 25" > $OUT/stacks_$i.txt 2>&1
    nvidia-smi --query-gpu=utilization.gpu,memory.used --format=csv,noheader
    grep -E "^#[0-9]+ " $OUT/stacks_$i.txt | grep -vE "pthread|futex|poll|epoll|clock_nanosleep|nanosleep" | head -20
    kill -9 $pid; wait $pid 2>/dev/null
  else
    wait $pid; echo "run $i rc $? in ${SECONDS}s: $(grep -c . $OUT/run_$i.log) lines"
  fi
done
sed -i "s#$PWD#.#g" $OUT/*
echo "all done at $SECONDS s"
