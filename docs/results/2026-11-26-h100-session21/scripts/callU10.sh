#!/usr/bin/env bash
# Session 21 U10: the CLI tests and `apiary rcm` on the final tree (the driver and DeviceGraph changed in 77fb1fe).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
JOBS=16 .run/setup3.sh "apiary test_apps" new
echo "built at $SECONDS s"
A=build/new/apps/apiary
T=$(find build/new -name test_apps -type f -perm -u+x | head -1)
timeout 200 $T > $OUT/test_apps.log 2>&1; echo "test_apps rc $? $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/test_apps.log | tr '\n' ' ')"
(cd .matrices && timeout 60 ../$A rcm fe_4elt2.mtx.gz --variant all --scheduler all) > $OUT/apiary-rcm-fe_4elt2.txt 2>&1; echo "apiary rc $?"; cat $OUT/apiary-rcm-fe_4elt2.txt
sed -i "s#$PWD#.#g" $OUT/*
echo "all done at $SECONDS s"
