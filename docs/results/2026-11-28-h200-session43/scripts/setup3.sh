#!/usr/bin/env bash
# setup3.sh "TARGETS" TREE...: TREE is old (.snapshot), new (.) or newX (a copy of . patched by .run/patch_X.sh).
export PATH=/usr/local/cuda/bin:$PATH
source scripts/env.sh
M=$PWD/.matrices
tg="$1"; shift
for t in "$@"; do
  src=.; [ $t = old ] && src=.snapshot; [ $t = v1 ] && src=.snapshot1
  if [ $t != old ] && [ $t != new ] && [ $t != v1 ]; then
    src=/tmp/src_$t; mkdir -p $src
    tar --exclude=./build --exclude=./.snapshot --exclude=./.matrices --exclude=./.git -cf - . | tar -x -C $src
    ( root=$PWD; cd $src && bash $root/.run/patch_${t#new}.sh $root ) || echo "patch $t failed"
  fi
  ( cmake -S $src -B build/$t -G Ninja -DCMAKE_BUILD_TYPE=Release "${cmake_prefix_args[@]}" -DAPIARY_SHARED_MATRICES=$M > /dev/null 2>&1 &&
    ninja -C build/$t -j ${JOBS:-$((16 / $#))} $tg > /tmp/b_$t.log 2>&1; echo "build $t rc $?"; grep -m3 " error" /tmp/b_$t.log ) &
done; wait
