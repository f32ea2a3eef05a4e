#!/usr/bin/env bash
# Session 23 J4: upload probe; the failing queue test old/new x3.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
nvcc -O2 -std=c++20 -I. .run/probe_upload.cu runtime/host_upload.cpp -o /tmp/probe_upload && /tmp/probe_upload | tee $OUT/probe_upload.log
F='Schedulers/QueueGpu.EveryItemExactlyOnceUnderContention/*'
for t in old new old new old new; do f=$(find build/$t -name test_runtime_gpu -type f | head -1); timeout 60 $f --gtest_filter="$F" > /tmp/q.log 2>&1; echo "$t rc $? $(grep -E '^\[  PASSED|^\[  FAILED' /tmp/q.log | head -2 | tr '\n' ' ')"; cat /tmp/q.log >> $OUT/queue_$t.log; done
grep -B2 -A10 "Failure" $OUT/queue_new.log | head -30
sed -i "s#$PWD#.#g" $OUT/*
