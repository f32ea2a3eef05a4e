#!/usr/bin/env bash
# Session 30 O11: a62a44f (Runtime/LaunchResources clean-up waits) under compute-sanitizer: test_runtime_gpu
# memcheck and synccheck (the deliberate failed-copy test excluded), racecheck as far as time allows.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
JOBS=16 .run/setup3.sh test_runtime_gpu new
echo "built at $SECONDS s"
B=$(find build/new/tests -name test_runtime_gpu -type f | head -1)
F=--gtest_filter=-HostUpload.FailedCopyThrowsAndReturns
for tool in memcheck synccheck racecheck; do
  APIARY_TEST_QUICK=1 timeout 110 compute-sanitizer --tool $tool --error-exitcode 3 $B $F > /tmp/m.txt 2>&1; echo "$tool runtime rc $? $(grep -E "SUMMARY|PASSED|FAILED" /tmp/m.txt | tail -2 | tr '\n' ' ') at $SECONDS s"; tail -4 /tmp/m.txt > $OUT/o11_${tool}_runtime.txt
done
sed -i "s#$PWD#.#g; s#/root/out#OUT#g" $OUT/*.txt
