#!/usr/bin/env bash
# Benchmarks, old (fbc00bb) against new, same call.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for t in old new; do build/$t/bench/bench_runtime --reps 5 --scheduler megakernel > $OUT/bench_runtime_$t.log 2>&1; done
S="--iterations 100 --reps 3 --nnz 1e4,1e5 --nnz-budget 256,512,1024"
for t in old new; do build/$t/bench/bench_jacobi $S > $OUT/bench_jacobi_small_$t.log 2>&1; done
L="--iterations 50 --reps 3 --nnz 1e6,1e7 --nnz-budget 1024,4096"
build/old/bench/bench_jacobi $L > $OUT/bench_jacobi_large_old.log 2>&1
build/new/bench/bench_jacobi $L --spec dd:52632:11:27,dd:526316:11:27,poisson3d:150 --json $OUT/bench_jacobi_large_new.json > $OUT/bench_jacobi_large_new.log 2>&1
for t in old new; do
  { build/$t/bench/bench_rcm --no-shared --reps 3; build/$t/bench/bench_pcg --order color --precond ic0 --loop tasks --reps 3 poisson3d:100; } > $OUT/bench_rcm_pcg_$t.log 2>&1
done
for t in old new; do echo "== $t"; grep -E "trivial|hop|switch|run of one" $OUT/bench_runtime_$t.log | grep -v "CUDA graph" | cut -c1-75; done
for t in old new; do echo "== $t"; grep -E "autonomous|graph " $OUT/bench_jacobi_small_$t.log | awk '{print $2,$3,$5,$7}' | tr '\n' ';'; echo; done
for t in old new; do echo "== $t"; grep -E "autonomous|graph |reference" $OUT/bench_jacobi_large_$t.log | awk '{print $1,$3,$5,$7,$NF}' | tr '\n' ';'; echo; done
for t in old new; do echo "== $t"; grep -iE "tasks|ic0" $OUT/bench_rcm_pcg_$t.log | grep -v "^device" | cut -c1-120 | head -12; done
