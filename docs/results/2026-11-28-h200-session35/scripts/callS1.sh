#!/usr/bin/env bash
# Session 35 S1: where the RCM set-up goes. new = HEAD (bench_rcm's setup column, nsys if there),
# newT = HEAD + .run/setup_trace.diff (a device sync and a stderr line after each set-up step).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "nsys: $(command -v nsys || ls -d /opt/nvidia/nsight-systems*/bin 2>/dev/null || ls /usr/local/cuda/bin | grep -i nsys || echo none)"
( JOBS=8 .run/setup3.sh "bench_rcm apiary" new ) &
( JOBS=8 .run/setup3.sh "bench_rcm" newT ) &
wait
echo "built at $SECONDS s"
timeout 100 build/new/bench/bench_rcm --no-shared --reps 3 > $OUT/s1_rcm_new.log 2>&1; echo "== rcm new at $SECONDS s"
grep -E "scrambled|megakernel|cub" $OUT/s1_rcm_new.log | cut -c1-200 | head -30
timeout 100 build/newT/bench/bench_rcm --no-shared --reps 3 > $OUT/s1_rcm_newT.log 2> $OUT/s1_trace.txt; echo "== rcm newT at $SECONDS s"
grep -c setup_trace $OUT/s1_trace.txt
NS=$(command -v nsys || ls /opt/nvidia/nsight-systems*/bin/nsys 2>/dev/null | head -1)
if [ -n "$NS" ]; then
  timeout 120 $NS profile -t cuda,osrt -o $OUT/s1_rcm2d --force-overwrite true build/new/apps/apiary rcm poisson2d:1000 --variant tasks --reps 1 > $OUT/s1_nsys_run.txt 2>&1; echo "nsys rc $? at $SECONDS s"
  timeout 120 $NS stats --report cuda_api_sum,cuda_gpu_mem_time_sum,cuda_gpu_kern_sum --format csv -o $OUT/s1_stats $OUT/s1_rcm2d.nsys-rep > /dev/null 2>&1
  timeout 120 $NS stats --report cuda_api_trace --format csv -o $OUT/s1_api $OUT/s1_rcm2d.nsys-rep > /dev/null 2>&1
  rm -f $OUT/s1_rcm2d.sqlite; ls -la $OUT
fi
sed -i "s#$PWD#.#g; s#/tmp/src_[A-Za-z0-9]*/#./#g" $OUT/*.log $OUT/*.txt 2>/dev/null
echo "all done at $SECONDS s"
