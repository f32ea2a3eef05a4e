#!/usr/bin/env bash
# Session 23 J6: final verification at 92f48d3 (new) and bench_rcm against 027bc02 (old).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
( JOBS=10 .run/setup3.sh "bench_rcm bench_upload test_runtime_gpu test_rcm_gpu test_jacobi_gpu test_sptrsv_gpu test_apps apiary" new ) &
( JOBS=6 .run/setup3.sh "bench_rcm" old ) &
wait
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
build/new/bench/bench_upload --mib 4,16,24,96,256 --reps 9 --json $OUT/bench_upload.json > $OUT/bench_upload.log 2>&1; cat $OUT/bench_upload.log
for t in test_runtime_gpu test_rcm_gpu test_jacobi_gpu test_sptrsv_gpu test_apps; do
  f=$(find build/new -name $t -type f | head -1)
  timeout 400 $f > /tmp/$t.log 2>&1; echo "$t rc $? $(grep -E '^\[  PASSED|^\[  FAILED|tests? skipped' /tmp/$t.log | head -3 | tr '\n' ' ') at $SECONDS s"
  grep -E "^\[  FAILED" /tmp/$t.log | head -5; tail -3 /tmp/$t.log >> $OUT/tests_tail.log
done
R=$(find build/new -name test_runtime_gpu -type f | head -1)
timeout 200 compute-sanitizer --tool memcheck --error-exitcode 3 $R --gtest_filter='HostUpload*:-*FailedCopy*' > $OUT/memcheck_upload.txt 2>&1; echo "memcheck upload rc $? $(grep -E 'ERROR SUMMARY|PASSED|FAILED' $OUT/memcheck_upload.txt | tail -2 | tr '\n' ' ')"
echo "tests at $SECONDS s"
for t in old new old new; do timeout 200 build/$t/bench/bench_rcm --no-shared --reps 3 --json $OUT/rcm_${t}_$SECONDS.json >> $OUT/rcm_$t.log 2>&1; echo "== rcm $t"; grep -E "tasks megakernel  " $OUT/rcm_$t.log | tail -3 | awk '{print $1, $(NF-6), $(NF-5), $(NF-4), $(NF-2), $(NF-1)}'; done
sed -i "s#$PWD#.#g" $OUT/*.log $OUT/*.txt
echo "all done at $SECONDS s"
