#!/usr/bin/env bash
# Session 35 S2: the stager with kept threads and four 2 MiB buffers, and the watchdog scaled under
# compute-sanitizer (new = the working tree) against HEAD (old = .snapshot): upload tests, bench_upload,
# bench_rcm alternated, RCM and runtime tests, racecheck of the RCM test the watchdog stopped in session 34.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
( JOBS=11 .run/setup3.sh "bench_upload bench_rcm test_runtime_gpu test_rcm_gpu" new ) &
( JOBS=5 .run/setup3.sh "bench_rcm" old ) &
wait
echo "built at $SECONDS s"
timeout 60 build/new/tests/runtime/test_runtime_gpu --gtest_filter='HostUpload.*' > $OUT/s2_upload_tests.log 2>&1; echo "HostUpload rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $OUT/s2_upload_tests.log | tr '\n' ' ') at $SECONDS s"
timeout 60 build/new/bench/bench_upload --mib 0.25,0.5,1,2,4,8,16,20,24,96 --reps 9 > $OUT/s2_upload.log 2>&1; cat $OUT/s2_upload.log
for t in new old new old; do
  [ $SECONDS -gt 400 ] && { echo "stopped before $t (time)"; break; }
  timeout 100 build/$t/bench/bench_rcm --no-shared --reps 3 >> $OUT/s2_rcm_$t.log 2>&1; echo "== rcm $t at $SECONDS s"
  grep -E "cub  |megakernel  " $OUT/s2_rcm_$t.log | tail -6 | cut -c1-20,90-200
done
timeout 120 build/new/tests/tasks/rcm/test_rcm_gpu > $OUT/s2_test_rcm_gpu.log 2>&1; echo "test_rcm_gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $OUT/s2_test_rcm_gpu.log | tr '\n' ' ') at $SECONDS s"
timeout $((575 - SECONDS)) build/new/tests/runtime/test_runtime_gpu > $OUT/s2_test_runtime_gpu.log 2>&1; echo "test_runtime_gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $OUT/s2_test_runtime_gpu.log | tr '\n' ' ') at $SECONDS s"
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log $OUT/*.txt 2>/dev/null
echo "all done at $SECONDS s"
