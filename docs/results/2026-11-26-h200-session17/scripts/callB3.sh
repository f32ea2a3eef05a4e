#!/usr/bin/env bash
# Large chunks: old (cf7d329, no deep claims) against new, autonomous and checkpoints, at 10^7 and poisson3d:150.
set -uo pipefail
cd "$(dirname "$0")/.."
.run/setup.sh "bench_jacobi" "bench_jacobi"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
for t in old new; do for rb in 1024 4096 16384; do
  build/$t/bench/bench_jacobi --iterations 50 --reps 3 --nnz 1e7 --spec poisson3d:150 --nnz-budget 16384,65536,262144 --row-budget $rb --variants autonomous,checkpoints 2>&1 | tee -a $OUT/large_chunks_$t.log | grep -E "autonomous|checkpoints|graph " | grep -v reference | tr -s ' ' | sed "s/^/$t rb=$rb: /"
done; done
