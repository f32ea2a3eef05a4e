#!/usr/bin/env bash
# Session 23 J10: the Jacobi CLI tests with the budgets in the JSON.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=16 .run/setup3.sh "test_jacobi_cli apiary" new
echo "built at $SECONDS s"
f=$(find build/new -name test_jacobi_cli -type f | head -1); timeout 200 $f > $OUT/test_jacobi_cli.log 2>&1; echo "test_jacobi_cli rc $? $(grep -E '^\[  PASSED|^\[  FAILED|SKIPPED' $OUT/test_jacobi_cli.log | head -3 | tr '\n' ' ')"
grep -E "Failure|FAILED" -A5 $OUT/test_jacobi_cli.log | head -20
sed -i "s#$PWD#.#g" $OUT/*.log
echo "all done at $SECONDS s"
