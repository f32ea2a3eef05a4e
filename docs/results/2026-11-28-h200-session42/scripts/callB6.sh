#!/usr/bin/env bash
# Session 42 B6: where tassl-deps' ~20 us of wall time outside its kernel goes (Nsight Systems on the CLI).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p $OUT/b6
which nsys > $OUT/b6/nsys_where.txt 2>&1 || ls /usr/local/cuda/bin /opt/nvidia 2>/dev/null | grep -i nsys >> $OUT/b6/nsys_where.txt
JOBS=16 .run/setup3.sh "apiary" new
echo "built at $SECONDS s"
A="build/new/apps/apiary sptrsv .matrices/commanche_dual.mtx.gz --lower --reps 50"
timeout 120 nsys profile -o $OUT/b6/deps --force-overwrite true --trace cuda,osrt $A --variant tassl-deps > $OUT/b6/deps_run.log 2>&1; echo "nsys deps rc $?"
timeout 60 nsys stats --report cuda_api_sum,cuda_gpu_kern_sum --format csv -o $OUT/b6/deps $OUT/b6/deps.nsys-rep > $OUT/b6/deps_stats.log 2>&1; echo "stats rc $?"
timeout 60 nsys stats --report cuda_api_trace,cuda_gpu_trace --format csv -o $OUT/b6/deps $OUT/b6/deps.nsys-rep > /dev/null 2>&1; echo "trace rc $?"
for f in $OUT/b6/deps_cuda_api_trace.csv $OUT/b6/deps_cuda_gpu_trace.csv; do [ -f $f ] && tail -400 $f > $f.tail && mv $f.tail $f; done
rm -f $OUT/b6/*.nsys-rep $OUT/b6/*.sqlite
sed -i "s#$PWD#.#g; s#$OUT#\$OUT#g" $OUT/b6/* 2>/dev/null
tar -czf $OUT/b6.tar.gz -C $OUT b6 && rm -rf $OUT/b6
echo "all done at $SECONDS s"
