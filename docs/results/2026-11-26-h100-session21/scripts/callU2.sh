#!/usr/bin/env bash
# Session 21 U2: tests (fixed counters); bench generated inputs with rank_level noinline (new) vs inlined (newI); probes (newP).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=6 .run/setup3.sh "test_rcm_gpu bench_rcm" new newI newP
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
timeout 300 build/new/tests/tasks/rcm/test_rcm_gpu > $OUT/test_rcm_gpu.log 2>&1; echo "test_rcm_gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/test_rcm_gpu.log | tr '\n' ' ')"
grep -E "Failure" -A6 $OUT/test_rcm_gpu.log | head -30
echo "tests at $SECONDS s"
for t in new newI; do timeout 200 build/$t/bench/bench_rcm --no-shared --reps 3 > $OUT/bench_rcm_$t.log 2>&1; echo "bench $t rc $?"; grep -E "tasks|cub" $OUT/bench_rcm_$t.log; done
timeout 200 build/newP/bench/bench_rcm --no-shared --reps 1 > $OUT/bench_rcm_newP.log 2> $OUT/probe.log; echo "probe rc $?"
python3 - $OUT/probe.log <<'PY'
import sys, collections
lines=open(sys.argv[1]).read().splitlines()
print(len(lines), "probe lines")
PY
sed -i "s#$PWD#.#g" $OUT/*
echo "all done at $SECONDS s"
