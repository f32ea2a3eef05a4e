#!/usr/bin/env bash
# Session 45 call 1: build; the sptrsv GPU tests never run (tiles, refresh), test_apps,
# compute-sanitizer on them; then the analysis bench (pruned vs full) on the 16-core host.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
D=$OUT/a1; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt; nproc >> $D/gpu.txt
.run/setup.sh "apiary bench_sptrsv test_sptrsv_gpu test_apps" || { cp /tmp/b_new.log $D/; exit 1; }
echo "built at $SECONDS s"
S=build/new/tests/tasks/sptrsv/test_sptrsv_gpu
timeout 120 $S > $D/test_sptrsv_gpu.log 2>&1
echo "test_sptrsv_gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $D/test_sptrsv_gpu.log | head -8 | tr '\n' ' ') at $SECONDS s"
timeout 100 build/new/tests/apps/test_apps > $D/test_apps.log 2>&1
echo "test_apps rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $D/test_apps.log | head -8 | tr '\n' ' ') at $SECONDS s"
F='*SptrsvRefresh*:*SptrsvSplits*'
for tool in memcheck synccheck racecheck; do
  APIARY_TEST_QUICK=1 timeout 100 compute-sanitizer --tool $tool --error-exitcode 3 $S --gtest_filter="$F" > $D/san_$tool.txt 2>&1
  echo "$tool rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $D/san_$tool.txt | tr '\n' ' ') at $SECONDS s"
done
timeout 120 build/new/bench/bench_sptrsv --analysis-only --set quick --matrices .matrices --reps 5 --csv $D/analysis_quick.csv > $D/analysis_quick.log 2>&1
echo "analysis-only rc $? at $SECONDS s"; tail -4 $D/analysis_quick.log
sed -i "s#$PWD#.#g; s#$OUT#\$OUT#g" $D/* 2>/dev/null
tar -czf $OUT/a1.tar.gz -C $OUT a1 && rm -rf $D
echo "all done at $SECONDS s"
