#!/usr/bin/env bash
# old (fbc00bb), mid (the committed group publish), new (one item: the single path): small Jacobi and RCM.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/.."
source scripts/env.sh
cp -r build/new build/mid 2>/dev/null
ninja -C build/new -j 16 bench_jacobi bench_rcm bench_pcg bench_runtime test_runtime_gpu test_jacobi_gpu test_rcm_gpu > /tmp/b.log 2>&1; echo "new build rc $?"
S="--iterations 100 --reps 3 --nnz 1e4,1e5 --nnz-budget 256,512,1024 --variants autonomous"
for t in old mid new old mid new; do echo "== $t"; build/$t/bench/bench_jacobi $S 2>&1 | grep -E "autonomous|graph " | awk '{print $2,$3,$5,$7}' | tr '\n' ';'; echo; done
for t in old mid new; do echo "== $t"; build/$t/bench/bench_rcm --no-shared --reps 3 2>&1 | grep -E "tasks megakernel" | awk '{print $1,$(NF-2)}' | tr '\n' ';'; echo; done
APIARY_TEST_QUICK=1 build/new/tests/runtime/test_runtime_gpu 2>&1 | tail -1
APIARY_TEST_QUICK=1 build/new/tests/tasks/jacobi/test_jacobi_gpu 2>&1 | tail -1
APIARY_TEST_QUICK=1 build/new/tests/tasks/rcm/test_rcm_gpu 2>&1 | tail -1
