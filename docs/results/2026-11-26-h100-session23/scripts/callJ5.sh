#!/usr/bin/env bash
# Session 23 J5: staged uploads (new) vs 027bc02 (old): bench_upload, test_runtime_gpu, memcheck of the upload tests, bench_rcm JSON (setup_ms) x2.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=8 .run/setup3.sh "bench_rcm bench_upload test_runtime_gpu" old new
echo "built at $SECONDS s"
export PATH=/usr/local/cuda/bin:$PATH
build/new/bench/bench_upload --mib 1,4,24,96 --reps 9 --json $OUT/bench_upload.json 2>&1 | tee $OUT/bench_upload.log
R=$(find build/new -name test_runtime_gpu -type f | head -1)
timeout 300 $R > /tmp/trg.log 2>&1; echo "test_runtime_gpu rc $? $(grep -E '^\[  PASSED|^\[  FAILED' /tmp/trg.log | head -2 | tr '\n' ' ')"; grep -E "^\[  FAILED|Failure" -A5 /tmp/trg.log | head -20; tail -5 /tmp/trg.log > $OUT/test_runtime_gpu_tail.log
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 3 $R --gtest_filter='HostUpload*:-*FailedCopy*' > $OUT/memcheck_upload.txt 2>&1; echo "memcheck upload rc $? $(grep -E 'ERROR SUMMARY|PASSED|FAILED' $OUT/memcheck_upload.txt | tail -2 | tr '\n' ' ')"
echo "tests at $SECONDS s"
for t in old new old new; do echo "== rcm $t"; timeout 200 build/$t/bench/bench_rcm --no-shared --reps 3 --json /tmp/rcm_$t.json > /tmp/rcm_$t.log 2>&1; cat /tmp/rcm_$t.log >> $OUT/rcm_$t.log
  python3 -c "
import json,sys
d=json.load(open('/tmp/rcm_$t.json'))
rows=d['rows'] if isinstance(d,dict) and 'rows' in d else d
for r in rows:
  if r.get('method','').startswith('tasks') or r.get('method')=='cub':
    print(r.get('matrix','?')[:16], r.get('method'), r.get('scheduler',''), 'gpu', round(r.get('gpu_ms',r.get('total_ms',0)),2), 'setup', round(r.get('gpu_setup_ms',-1),2), 'start', round(r['gpu_start_ms'],2))
" 2>&1 | head -14; cp /tmp/rcm_$t.json $OUT/rcm_${t}_$SECONDS.json; done
sed -i "s#$PWD#.#g" $OUT/*.log $OUT/*.txt
echo "all done at $SECONDS s"
