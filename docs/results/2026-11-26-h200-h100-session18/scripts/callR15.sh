#!/usr/bin/env bash
# Write-back variants: new (whole state + system fence) vs newf (64 of every 256 bytes, no fence) vs HEAD (old: the copy).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=5 .run/setup3.sh "bench_runtime" old new & JOBS=6 .run/setup3.sh "bench_runtime test_runtime_gpu" newf & wait
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
APIARY_TEST_QUICK=1 build/newf/tests/runtime/test_runtime_gpu > /tmp/t1.log 2>&1; echo "runtime quick newf rc $? $(tail -1 /tmp/t1.log)"
for t in old new newf old new newf; do echo "== runtime $t"; build/$t/bench/bench_runtime --reps 5 --scheduler megakernel 2>&1 | tee -a $OUT/r15_runtime_$t.log | grep -E "megakernel" | awk -F'  +' '{print $3}' | tr '\n' ';'; echo; done
sed -i "s#$PWD#.#g" $OUT/*.log
echo "all done at $SECONDS s"
