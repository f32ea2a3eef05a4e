#!/usr/bin/env bash
# Final: the whole test suite of the final tree, the sanitizers, the Poisson trace.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/.."
source scripts/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
git log --oneline 2>/dev/null | head -1
ninja -C build/new -j 16 > /tmp/b.log 2>&1; echo "build rc $?"
ctest --test-dir build/new -j 4 --output-on-failure --timeout 300 > $OUT/ctest_final.log 2>&1; echo "ctest rc $?"
grep -E "tests passed|tests failed|\*\*\*Failed|\*\*\*Skipped" $OUT/ctest_final.log | tail -6
T=build/new/tests/runtime/test_runtime_gpu
F='Schedulers/QueueGpu.*:Schedulers/Phases.*:Schedulers/Dependencies.*'
for tool in memcheck synccheck; do
  APIARY_TEST_QUICK=1 compute-sanitizer --tool $tool --error-exitcode 3 $T --gtest_filter="$F" > $OUT/san_runtime_$tool.log 2>&1
  echo "$tool runtime rc $? $(grep -E 'ERROR SUMMARY|PASSED|FAILED' $OUT/san_runtime_$tool.log | tail -3 | tr '\n' ' ')"
done
APIARY_TEST_QUICK=1 compute-sanitizer --tool racecheck --error-exitcode 3 $T --gtest_filter="$F" > $OUT/san_runtime_racecheck.log 2>&1
echo "racecheck runtime rc $? $(grep -E 'RACECHECK SUMMARY|PASSED|FAILED' $OUT/san_runtime_racecheck.log | tail -3 | tr '\n' ' ')"
grep -B1 "hazards\]" $OUT/san_runtime_racecheck.log | grep -o "RUN.*\|megakernel.cuh:[0-9]*\|\[[0-9]* hazards\]" | head -20
J=build/new/tests/tasks/jacobi/test_jacobi_gpu
for tool in memcheck synccheck racecheck; do
  APIARY_TEST_QUICK=1 compute-sanitizer --tool $tool --error-exitcode 3 $J --gtest_filter='*Stage*:*DiagonallyDominant*:*RowsLonger*:*Stop*' > $OUT/san_jacobi_$tool.log 2>&1
  echo "$tool jacobi rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/san_jacobi_$tool.log | tail -3 | tr '\n' ' ')"
done
for spec in "poisson3d:150 4096 256" "dd:526316:11:27 4096 256" "dd:526:11:27 512 256"; do
  read -r m bud rb <<< "$spec"
  build/new/apps/apiary jacobi $m --variant autonomous --tol 0 --max-iter 20 --nnz-budget $bud --row-budget $rb --rhs random --reps 1 --trace /tmp/tr > /tmp/j.log 2>&1
  ch=$(grep -o "^tasks *[0-9]*" /tmp/j.log | grep -o "[0-9]*")
  python3 .run/jtrace.py /tmp/tr-autonomous-megakernel.json $ch
done
