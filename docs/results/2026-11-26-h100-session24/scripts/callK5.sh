#!/usr/bin/env bash
# Session 24 K5: final verification at f1eec59 (new) against 13a4932 (old): GPU tests, every Jacobi task variant, RCM.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
( JOBS=10 .run/setup3.sh "bench_jacobi bench_rcm test_runtime_gpu test_jacobi_gpu test_rcm_gpu test_apps apiary" new ) &
( JOBS=6 .run/setup3.sh "bench_jacobi bench_rcm" old ) &
wait
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for t in test_runtime_gpu test_jacobi_gpu test_rcm_gpu test_apps; do
  f=$(find build/new -name $t -type f | head -1)
  timeout 300 $f > /tmp/$t.log 2>&1; echo "$t rc $? $(grep -E '^\[  PASSED|^\[  FAILED|tests? skipped' /tmp/$t.log | head -3 | tr '\n' ' ') at $SECONDS s"
  grep -E "^\[  FAILED" /tmp/$t.log | head -5; tail -3 /tmp/$t.log >> $OUT/tests_tail.log
done
S="--iterations 100 --reps 3 --nnz 1e4,1e5 --nnz-budget auto,512 --variants stages-phases,stages-deps,autonomous,checkpoints"
for t in old new old new; do timeout 120 build/$t/bench/bench_jacobi $S >> $OUT/jacobi_variants_$t.log 2>&1; echo "== jacobi $t at $SECONDS s"; done
for t in old new; do grep -E "megakernel|graph|kernels " $OUT/jacobi_variants_$t.log | awk '{print $2,$3,$6,$8}' | awk '{k=$1" "$2" "$3; a[k]=a[k]" "$4} END {for (k in a) print k":"a[k]}' | sort | sed "s/^/$t /"; done
for t in old new; do timeout 200 build/$t/bench/bench_rcm --no-shared --reps 3 > $OUT/rcm_$t.log 2>&1; echo "== rcm $t"; grep -E "tasks megakernel  " $OUT/rcm_$t.log | awk '{print $1, $(NF-6), $(NF-5), $(NF-4), $(NF-2), $(NF-1)}'; done
sed -i "s#$PWD#.#g" $OUT/*.log
echo "all done at $SECONDS s"
