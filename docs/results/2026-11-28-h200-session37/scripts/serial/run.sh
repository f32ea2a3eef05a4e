#!/usr/bin/env bash
# Session 37 H: the serial reference (sparse/rcm.cpp) with and without row prefetches, on the device's host CPU.
cd "$(dirname "$0")/../.."
SECONDS=0
lscpu | grep -E "Model name|^CPU\(s\)|L2|L3"
S=$(ls sparse/*.cpp | grep -v -e "sparse/rcm.cpp" -e matrix_market)
build() { g++ -O3 -DNDEBUG -std=c++20 -I. $2 .run/serial/time_rcm.cpp .run/serial/$1 $S -o /tmp/t_$3 2>&1 | tail -3; }
build rcm_old.cpp "" old & build rcm_new.cpp "" new & build rcm_new.cpp "-DBA=32 -DCA=16" new32 & build rcm_new.cpp "-DBA=8 -DCA=4" new8 & wait
echo "built at $SECONDS s"
for w in 0 1; do for pass in 1 2 3; do for t in old new new32 new8; do echo "$w $t $(/tmp/t_$t $w)"; done; done; done
echo "done at $SECONDS s"
