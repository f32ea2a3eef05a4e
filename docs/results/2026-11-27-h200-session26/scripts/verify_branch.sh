#!/usr/bin/env bash
# For the next session: the checks that branch waiting-claim-pollers still needs before
# it is merged. Run on the device from a checkout of the branch, with .run/ holding
# setup3.sh and regs.sh and .snapshot/ holding main (the tree to compare against).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
source scripts/env.sh
( JOBS=10 .run/setup3.sh "test_runtime_gpu test_jacobi_gpu test_generic_gpu test_watchdog test_apps apiary bench_jacobi" new ) &
( cmake -S . -B build/ctl -G Ninja -DCMAKE_BUILD_TYPE=Release -DAPIARY_CONTROLLER=ON -DAPIARY_BUILD_BENCH=OFF "${cmake_prefix_args[@]}" > /dev/null 2>&1 &&
  ninja -C build/ctl -j 6 test_runtime_gpu test_jacobi_gpu > /tmp/b_ctl.log 2>&1; echo "build ctl rc $?" ) &
wait
( JOBS=16 .run/setup3.sh "apiary bench_jacobi" old )
bash .run/regs.sh new | grep VariantE4   # autonomous megakernel: must stay at 80 registers
run() { local name=$1; shift; timeout 300 "$@" > /tmp/$name.log 2>&1; echo "$name rc $? $(grep -E '^\[  PASSED|^\[  FAILED' /tmp/$name.log | tr '\n' ' ')"; grep -E "^\[  FAILED" /tmp/$name.log | head; }
B=build/new/tests
run runtime $B/runtime/test_runtime_gpu
run watchdog $B/runtime/test_watchdog
run generic $B/tasks/generic/test_generic_gpu
run jacobi $B/tasks/jacobi/test_jacobi_gpu
run apps $B/apps/test_apps
run runtime_ctl build/ctl/tests/runtime/test_runtime_gpu
run jacobi_ctl build/ctl/tests/tasks/jacobi/test_jacobi_gpu
F='*Claims*:*FillsItsQueue*:*Reserv*:*WavesReleased*'
for tool in memcheck synccheck racecheck; do
  timeout 300 compute-sanitizer --tool $tool --error-exitcode 3 $B/runtime/test_runtime_gpu --gtest_filter="$F" > /tmp/san_q_$tool.txt 2>&1; echo "$tool queue rc $? $(grep -E 'SUMMARY|PASSED|FAILED' /tmp/san_q_$tool.txt | tail -2 | tr '\n' ' ')"
  APIARY_TEST_QUICK=1 timeout 300 compute-sanitizer --tool $tool --error-exitcode 3 $B/tasks/jacobi/test_jacobi_gpu --gtest_filter='*utonomous*' > /tmp/san_j_$tool.txt 2>&1; echo "$tool jacobi rc $? $(grep -E 'SUMMARY|PASSED|FAILED' /tmp/san_j_$tool.txt | tail -2 | tr '\n' ' ')"
done
S="--iterations 100 --reps 3 --nnz 1e4,1e5,1e6 --nnz-budget auto,512 --variants autonomous"
for p in 1 2; do for t in old new; do timeout 150 build/$t/bench/bench_jacobi $S > /tmp/j.log 2>&1; cat /tmp/j.log >> $OUT/jacobi.log
  echo "$t p$p $(grep -E ' (graph|autonomous) ' /tmp/j.log | awk '{printf "%s %s %s %s | ", $1, $3, $6, $8}')"; done; done
echo "all done at $SECONDS s"
