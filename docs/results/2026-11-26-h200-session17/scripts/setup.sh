#!/usr/bin/env bash
# setup.sh "OLD TARGETS" "NEW TARGETS": configure and build build/old (.snapshot) and build/new (.) in parallel.
export PATH=/usr/local/cuda/bin:$PATH
source scripts/env.sh
M=$PWD/.matrices
for t in old new; do src=.; tg="$1"; [ $t = old ] && src=.snapshot; [ $t = new ] && tg="$2"
  ( cmake -S $src -B build/$t -G Ninja -DCMAKE_BUILD_TYPE=Release "${cmake_prefix_args[@]}" -DAPIARY_SHARED_MATRICES=$M > /dev/null 2>&1 &&
    ninja -C build/$t -j 8 $tg > /tmp/b_$t.log 2>&1; echo "build $t rc $?"; grep -m3 " error" /tmp/b_$t.log ) &
done; wait
