#!/usr/bin/env bash
# Large chunks under both schedulers (megakernel, timesliced).
set -uo pipefail
cd "$(dirname "$0")/.."
.run/setup.sh "-" "bench_jacobi"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
build/new/bench/bench_jacobi --iterations 50 --reps 3 --nnz 1e7 --spec poisson3d:150 --nnz-budget 16384,65536 --row-budget 1024,16384 --variants autonomous,checkpoints,stages-phases --schedulers all > $OUT/large_chunks_schedulers.log 2>&1; echo "rc $?"
grep -E "autonomous|checkpoints|stages|graph " $OUT/large_chunks_schedulers.log | grep -v reference | tr -s ' '
