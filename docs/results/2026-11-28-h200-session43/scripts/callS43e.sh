#!/usr/bin/env bash
# Session 43 E1 (right after D1, same machine): every other GPU test of the new tree.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
D=$OUT/e1; mkdir -p $D
JOBS=16 .run/setup3.sh "test_jacobi_gpu test_pcg_gpu test_rcm_gpu test_generic_gpu test_apps test_baselines_gpu test_nvtx_gpu test_jacobi_cli test_sptrsv_compare" new
echo "built at $SECONDS s"
for t in tasks/jacobi/test_jacobi_gpu tasks/pcg/test_pcg_gpu tasks/rcm/test_rcm_gpu tasks/generic/test_generic_gpu apps/test_apps tasks/sptrsv/test_baselines_gpu runtime/test_nvtx_gpu tasks/jacobi/test_jacobi_cli tasks/sptrsv/test_sptrsv_compare; do
  f=$(find build/new/tests -name $(basename $t) -type f | head -1)
  timeout 200 $f > $D/$(basename $t).log 2>&1
  echo "$t rc $? $(grep -E '^\[  PASSED|^\[  FAILED|FAILED  \]' $D/$(basename $t).log | head -6 | tr '\n' ' ') at $SECONDS s"
done
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g; s#$OUT#\$OUT#g" $D/* 2>/dev/null
tar -czf $OUT/e1.tar.gz -C $OUT e1 && rm -rf $D
echo "all done at $SECONDS s"
