#!/usr/bin/env bash
# Session 32 Q6: racecheck of the runtime test suites that Q5 found hazards in (Barriers, Dependencies, Phases, Tasks),
# one test per sanitizer run, so each hazard is attributed to a test (and its program's task sizes); outputs kept.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
JOBS=16 .run/setup3.sh "test_runtime_gpu" new
echo "built at $SECONDS s"
B=$(find build/new/tests -name test_runtime_gpu -type f | head -1)
mkdir -p $OUT/q6
$B --gtest_list_tests | awk '/^[^ ]/{s=$1} /^  /{print s $1}' | grep -E "^(Barriers|Schedulers/Dependencies|Schedulers/Phases|Schedulers/Tasks)\." > /tmp/list.txt
wc -l < /tmp/list.txt
while read t; do
  [ $SECONDS -gt 440 ] && { echo "not run (time): $t" | tee -a $OUT/q6_racecheck.txt; continue; }
  f=$OUT/q6/$(echo $t | tr '/.' '__').txt
  APIARY_TEST_QUICK=1 timeout $((470 - SECONDS)) compute-sanitizer --tool racecheck --error-exitcode 3 $B --gtest_filter="$t" > /tmp/r.txt 2>&1
  rc=$?; echo "racecheck $t rc $rc $(grep -E "RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED" /tmp/r.txt | tr '\n' ' ') at $SECONDS s" | tee -a $OUT/q6_racecheck.txt
  [ $rc -ne 0 ] && head -c 60000 /tmp/r.txt > $f
done < /tmp/list.txt
echo "all done at $SECONDS s"
