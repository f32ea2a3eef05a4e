#!/usr/bin/env bash
# setup.sh "TARGETS": configure and build the working tree in build/new (release, ninja, 16 jobs).
export PATH=/usr/local/cuda/bin:$PATH
source scripts/env.sh
M=$PWD/.matrices
cmake -S . -B build/new -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_FLAGS=-lineinfo "${cmake_prefix_args[@]}" -DAPIARY_SHARED_MATRICES=$M > /tmp/cfg.log 2>&1 || { tail -20 /tmp/cfg.log; exit 1; }
ninja -C build/new -j ${JOBS:-16} $1 > /tmp/b_new.log 2>&1; rc=$?; echo "build rc $rc"; grep -m5 " error" /tmp/b_new.log
exit $rc
