#!/usr/bin/env bash
# Session 35 S3: the stager as committed (threshold back at 16 MiB) and the scaled watchdog (new = the working
# tree) against HEAD before them (old = .snapshot): upload tests and bench_upload (both trees), bench_rcm
# alternated, the RCM and runtime tests, memcheck of the upload tests, racecheck of the RCM test the watchdog
# stopped in session 34.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
( JOBS=11 .run/setup3.sh "bench_upload bench_rcm test_runtime_gpu test_rcm_gpu" new ) &
( JOBS=5 .run/setup3.sh "bench_upload bench_rcm" old ) &
wait
echo "built at $SECONDS s"
timeout 60 build/new/tests/runtime/test_runtime_gpu --gtest_filter='HostUpload.*' > $OUT/s3_upload_tests.log 2>&1; echo "HostUpload rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $OUT/s3_upload_tests.log | tr '\n' ' ') at $SECONDS s"
for t in new old; do timeout 60 build/$t/bench/bench_upload --mib 4,8,16,20,24,96 --reps 9 > $OUT/s3_upload_$t.log 2>&1; echo "== upload $t"; cat $OUT/s3_upload_$t.log; done
for t in new old new old; do
  [ $SECONDS -gt 360 ] && { echo "stopped before $t (time)"; break; }
  timeout 100 build/$t/bench/bench_rcm --no-shared --reps 3 >> $OUT/s3_rcm_$t.log 2>&1; echo "== rcm $t at $SECONDS s"
  grep -E "cub  |megakernel  " $OUT/s3_rcm_$t.log | tail -6 | cut -c1-20,90-200
done
timeout 120 build/new/tests/tasks/rcm/test_rcm_gpu > $OUT/s3_test_rcm_gpu.log 2>&1; echo "test_rcm_gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $OUT/s3_test_rcm_gpu.log | tr '\n' ' ') at $SECONDS s"
timeout 60 build/new/tests/runtime/test_runtime_gpu > $OUT/s3_test_runtime_gpu.log 2>&1; echo "test_runtime_gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $OUT/s3_test_runtime_gpu.log | tr '\n' ' ') at $SECONDS s"
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 3 build/new/tests/runtime/test_runtime_gpu --gtest_filter='HostUpload.*' > $OUT/s3_memcheck_upload.txt 2>&1; echo "memcheck upload rc $? $(grep -E 'ERROR SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/s3_memcheck_upload.txt | tr '\n' ' ') at $SECONDS s"
APIARY_TEST_QUICK=1 timeout $((585 - SECONDS)) compute-sanitizer --tool racecheck --error-exitcode 3 build/new/tests/tasks/rcm/test_rcm_gpu --gtest_filter='*LevelsAreOrderedDuringTheLastSearch/tasks_megakernel' > $OUT/s3_racecheck.txt 2>&1; echo "racecheck rc $? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY|^\[  PASSED|^\[  FAILED|watchdog' $OUT/s3_racecheck.txt | head -5 | tr '\n' ' ') at $SECONDS s"
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log $OUT/*.txt 2>/dev/null
echo "all done at $SECONDS s"
