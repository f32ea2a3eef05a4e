#!/usr/bin/env bash
# Session 25 D5: the wrap test with a starter (new, and newH with the hook disabled), sanitizers.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
( JOBS=10 .run/setup3.sh "test_runtime_gpu test_jacobi_gpu" new ) &
( JOBS=6 .run/setup3.sh "test_runtime_gpu" newH ) &
wait
echo "built at $SECONDS s"
R=build/new/tests/runtime/test_runtime_gpu; J=build/new/tests/tasks/jacobi/test_jacobi_gpu
timeout 60 build/newH/tests/runtime/test_runtime_gpu --gtest_filter='*FillsItsQueue*' > $OUT/wrap_without_hook.log 2>&1; echo "wrap without hook rc $? $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/wrap_without_hook.log | tr '\n' ' ') at $SECONDS s"; grep -m3 -iE "watchdog|error|Failure" $OUT/wrap_without_hook.log | cut -c1-220
timeout 100 $R > /tmp/rt.log 2>&1; echo "runtime gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED' /tmp/rt.log | tr '\n' ' ') at $SECONDS s"; grep -E "^\[  FAILED" /tmp/rt.log | head; tail -3 /tmp/rt.log > $OUT/tests_tail.log
F='*FillsItsQueue*:*Reserv*:*WavesReleased*'
for tool in memcheck racecheck synccheck; do
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 3 $R --gtest_filter="$F" > /tmp/san_$tool.txt 2>&1; echo "$tool queue rc $? $(grep -E 'SUMMARY|PASSED|FAILED' /tmp/san_$tool.txt | tail -2 | tr '\n' ' ') at $SECONDS s"; tail -4 /tmp/san_$tool.txt >> $OUT/sanitizers_tail.txt
done
for tool in memcheck racecheck; do
  APIARY_TEST_QUICK=1 timeout 120 compute-sanitizer --tool $tool --error-exitcode 3 $J --gtest_filter='*utonomous*' > /tmp/sanj_$tool.txt 2>&1; echo "$tool jacobi rc $? $(grep -E 'SUMMARY|PASSED|FAILED' /tmp/sanj_$tool.txt | tail -2 | tr '\n' ' ') at $SECONDS s"; tail -4 /tmp/sanj_$tool.txt >> $OUT/sanitizers_tail.txt
done
sed -i "s#$PWD#.#g" $OUT/*.log $OUT/*.txt
echo "all done at $SECONDS s"
