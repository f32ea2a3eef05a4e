#!/usr/bin/env bash
# Session 25 D4: the waiting claim's slot freed after the task, with the producers' before-wait hook (new),
# against HEAD (old); the hook disabled (newH) to see the wrap test fail.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
( JOBS=8 .run/setup3.sh "bench_jacobi test_runtime_gpu test_jacobi_gpu test_apps apiary" new ) &
( JOBS=4 .run/setup3.sh "test_runtime_gpu" newH ) &
( JOBS=4 .run/setup3.sh "bench_jacobi" old ) &
wait
echo "built at $SECONDS s"
bash .run/regs.sh new; bash .run/regs.sh old
run() { local name=$1; shift; timeout 300 "$@" > /tmp/$name.log 2>&1; echo "$name rc $? $(grep -E '^\[  PASSED|^\[  FAILED|tests? skipped' /tmp/$name.log | head -3 | tr '\n' ' ') at $SECONDS s"; grep -E "^\[  FAILED" /tmp/$name.log | head -5; tail -4 /tmp/$name.log >> $OUT/tests_tail.log; }
R=build/new/tests/runtime/test_runtime_gpu; J=build/new/tests/tasks/jacobi/test_jacobi_gpu
timeout 60 build/newH/tests/runtime/test_runtime_gpu --gtest_filter='*FillsItsQueue*' > $OUT/wrap_without_hook.log 2>&1; echo "wrap without hook rc $? $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/wrap_without_hook.log | tr '\n' ' ')"; grep -m2 -iE "watchdog|error" $OUT/wrap_without_hook.log | cut -c1-200
run rt_new $R
run jacobi_new $J
run apps_new build/new/tests/apps/test_apps
S="--iterations 100 --reps 3 --nnz 1e4,1e5,1e6 --nnz-budget auto,512 --variants autonomous,stages-deps,checkpoints"
for t in old new old new; do timeout 120 build/$t/bench/bench_jacobi $S >> $OUT/jacobi_$t.log 2>&1; echo "== jacobi $t at $SECONDS s"; done
for t in old new; do grep -E "megakernel|graph |kernels " $OUT/jacobi_$t.log | awk '{print $2,$3,$6,$8}' | awk '{k=$1" "$2" "$3; a[k]=a[k]" "$4} END {for (k in a) print k":"a[k]}' | sort | sed "s/^/$t /"; done
timeout 200 build/new/bench/bench_jacobi --iterations 50 --reps 3 --nnz 1e7 --spec poisson3d:150 --nnz-budget auto --variants autonomous > $OUT/jacobi_large_new.log 2>&1; echo "== large new at $SECONDS s"; grep -E "megakernel|graph " $OUT/jacobi_large_new.log | awk '{print $1,$2,$3,$6,$8}'
for tool in memcheck racecheck synccheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 $R --gtest_filter='*QueueGpu*' > /tmp/san_$tool.txt 2>&1; echo "$tool queue rc $? $(grep -E 'SUMMARY|PASSED|FAILED' /tmp/san_$tool.txt | tail -2 | tr '\n' ' ') at $SECONDS s"; tail -5 /tmp/san_$tool.txt >> $OUT/sanitizers_tail.txt
done
sed -i "s#$PWD#.#g" $OUT/*.log $OUT/*.txt
echo "all done at $SECONDS s"
