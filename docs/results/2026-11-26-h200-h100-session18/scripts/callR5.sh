#!/usr/bin/env bash
# Final tree: the whole test suite, and megakernel registers old (HEAD) vs new.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=16 .run/setup3.sh "all" new & sleep 1; JOBS=2 .run/setup3.sh "bench_runtime" old & wait
echo "built at $SECONDS s"
( .run/regs.sh $OUT/regs.txt > /dev/null 2>&1; echo "regs done at $SECONDS s" ) &
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 330 ctest --test-dir build/new -j 4 --output-on-failure --timeout 250 > $OUT/ctest.log 2>&1; echo "ctest rc $? at $SECONDS s"
grep -E "tests passed|tests failed|\*\*\*Failed|\*\*\*Timeout|Skipped\)|Total Test" $OUT/ctest.log | tail -12
wait
grep -c CHANGED $OUT/regs.txt; grep CHANGED $OUT/regs.txt | cut -c1-200
sed -i "s#$PWD#.#g" $OUT/ctest.log
echo "all done at $SECONDS s"
