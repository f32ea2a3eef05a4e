#!/usr/bin/env bash
# Session 45 call 5: the final tree's CLI error line on a GPU, and test_apps.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
D=$OUT/c5; mkdir -p $D
git log --oneline -1 > $D/commit.txt 2>/dev/null
.run/setup.sh "apiary test_apps" || { cp /tmp/b_new.log $D/; exit 1; }
echo "built at $SECONDS s"
timeout 30 build/new/apps/apiary sptrsv .matrices/nh2010.mtx.gz --lower --unit-diagonal --reps 3 > $D/cli_nh2010.log 2>&1; echo "cli rc $?"; tail -1 $D/cli_nh2010.log
timeout 60 build/new/apps/apiary sptrsv .matrices/nh2010.mtx.gz --lower --reps 3 > $D/cli_nh2010_dominant.log 2>&1; echo "cli (stored diagonal) rc $?"; tail -1 $D/cli_nh2010_dominant.log
timeout 100 build/new/tests/apps/test_apps > $D/test_apps.log 2>&1
echo "test_apps rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $D/test_apps.log | head -4 | tr '\n' ' ') at $SECONDS s"
sed -i "s#$PWD#.#g; s#$OUT#\$OUT#g" $D/* 2>/dev/null
echo "all done at $SECONDS s"
