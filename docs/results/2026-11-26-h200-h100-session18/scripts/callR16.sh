#!/usr/bin/env bash
# 2444015 (write-back) on the warm H200: RCM, PCG and CLI tests.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
source scripts/env.sh
ninja -C build/new -j 16 test_rcm_gpu test_pcg_gpu test_apps > /tmp/b.log 2>&1; echo "build rc $? at $SECONDS s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
APIARY_TEST_QUICK=1 timeout 60 build/new/tests/tasks/rcm/test_rcm_gpu > /tmp/t1.log 2>&1; echo "rcm quick rc $? $(tail -1 /tmp/t1.log)"
APIARY_TEST_QUICK=1 timeout 60 build/new/tests/tasks/pcg/test_pcg_gpu > /tmp/t2.log 2>&1; echo "pcg quick rc $? $(tail -1 /tmp/t2.log)"
timeout 60 build/new/tests/apps/test_apps > /tmp/t3.log 2>&1; echo "apps rc $? $(tail -1 /tmp/t3.log)"
cat /tmp/t1.log /tmp/t2.log /tmp/t3.log | grep -E "FAILED|PASSED|SKIPPED|tests ran" > $OUT/r16_tests.txt
echo "all done at $SECONDS s"
