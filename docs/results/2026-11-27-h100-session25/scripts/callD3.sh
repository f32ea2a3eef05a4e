#!/usr/bin/env bash
# Session 25 D3: the waiting claim's slot freed after the batch's fence (newD) or with a relaxed store (newR, an upper bound, not kept) against HEAD (old).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
( JOBS=6 .run/setup3.sh "bench_jacobi test_runtime_gpu test_jacobi_gpu" newD ) &
( JOBS=5 .run/setup3.sh "bench_jacobi" newR ) &
( JOBS=5 .run/setup3.sh "bench_jacobi" old ) &
wait
echo "built at $SECONDS s"
( cd build/newD && cmd=$(ninja -t commands tasks/jacobi/CMakeFiles/apiary_jacobi.dir/tasks.cu.o | tail -1) && eval "${cmd/ -c / -Xptxas -v -c } -o /tmp/jt.o" 2>&1 | grep -A1 "megakernel" | grep -E "registers" | head -8 ) > $OUT/regs_newD.txt 2>&1
cat $OUT/regs_newD.txt | cut -c1-150
S="--iterations 100 --reps 3 --nnz 1e4,1e5,1e6 --nnz-budget auto,512 --variants autonomous"
for t in old newD newR old newD newR; do timeout 120 build/$t/bench/bench_jacobi $S >> $OUT/jacobi_$t.log 2>&1; echo "== jacobi $t at $SECONDS s"; done
for t in old newD newR; do grep -E "megakernel|graph " $OUT/jacobi_$t.log | awk '{print $2,$3,$6,$8}' | awk '{k=$1" "$2" "$3; a[k]=a[k]" "$4} END {for (k in a) print k":"a[k]}' | sort | sed "s/^/$t /"; done
run() { local name=$1; shift; timeout 300 "$@" > $OUT/$name.log 2>&1; echo "$name rc $? $(grep -E '^\[  PASSED|^\[  FAILED|tests? skipped' $OUT/$name.log | head -3 | tr '\n' ' ') at $SECONDS s"; grep -E "^\[  FAILED" $OUT/$name.log | head -5; }
run rt_newD build/newD/tests/runtime/test_runtime_gpu
run jacobi_newD build/newD/tests/tasks/jacobi/test_jacobi_gpu
sed -i "s#$PWD#.#g" $OUT/*.log
echo "all done at $SECONDS s"
