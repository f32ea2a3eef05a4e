#!/usr/bin/env bash
# H100: the whole test suite of the new tree, and bench_runtime old vs new (phase switch goal <= 3 us).
set -uo pipefail
cd "$(dirname "$0")/.."
.run/setup.sh "bench_runtime" "all"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for t in old new old new; do echo "== runtime $t"; build/$t/bench/bench_runtime --reps 5 --scheduler megakernel 2>&1 | tee -a $OUT/bench_runtime_h100_$t.log | grep megakernel | awk -F'  +' '{print $3}' | tr '\n' ';'; echo; done
timeout 280 ctest --test-dir build/new -j 4 --output-on-failure --timeout 200 > $OUT/ctest_h100.log 2>&1; echo "ctest rc $?"
grep -E "tests passed|tests failed|\*\*\*Failed|\*\*\*Skipped|Total Test" $OUT/ctest_h100.log | tail -8
