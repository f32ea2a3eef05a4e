#!/usr/bin/env bash
# Session 27 F3 (warm after F2): racecheck of the megakernel queue tests; bench_sptrsv quick, old (359d450) vs new.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
ls build/new/bench/bench_sptrsv build/old/bench/bench_sptrsv || exit 1
F='*Claims*/megakernel:*FillsItsQueue*/megakernel:*Reserv*/megakernel:*WavesReleased*/megakernel'
( timeout 280 compute-sanitizer --tool racecheck --error-exitcode 3 build/new/tests/runtime/test_runtime_gpu --gtest_filter="$F" > /tmp/rq.txt 2>&1; echo "racecheck queue megakernel rc $? $(grep -cE '^\[       OK' /tmp/rq.txt) ok, $(grep -ciE 'race reported|hazard' /tmp/rq.txt) hazard lines, $(grep -E 'SUMMARY|PASSED|FAILED' /tmp/rq.txt | tail -2 | tr '\n' ' ') at $SECONDS s"; grep -E '^\[ RUN|OK \]|SUMMARY' /tmp/rq.txt > $OUT/racecheck_queue_megakernel.txt ) &
for t in old new; do
  timeout 130 build/$t/bench/bench_sptrsv --set quick --matrices .matrices --csv $OUT/sptrsv_$t.csv > $OUT/sptrsv_$t.log 2>&1; echo "sptrsv $t rc $? at $SECONDS s"
done
wait
sed -i "s#$PWD#.#g" $OUT/*
echo "all done at $SECONDS s"
