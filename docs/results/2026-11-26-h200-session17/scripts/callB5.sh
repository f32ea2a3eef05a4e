#!/usr/bin/env bash
# Best (entries, rows) budgets per size: autonomous and checkpoints, 10^4..10^6.
set -uo pipefail
cd "$(dirname "$0")/.."
.run/setup.sh "-" "bench_jacobi"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
build/new/bench/bench_jacobi --iterations 100 --reps 3 --nnz 1e4,1e5,1e6 --nnz-budget 512,1024,2048,4096,8192,16384 --row-budget 256,4096 --variants autonomous,checkpoints --json $OUT/budgets_small.json > $OUT/budgets_small.log 2>&1; echo "rc $?"
python3 - $OUT/budgets_small.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
best = {}
for r in d["rows"]:
    k = (r["matrix"], r["variant"])
    if k not in best or r["ms_per_iteration"] < best[k]["ms_per_iteration"]: best[k] = r
for (m, v), r in sorted(best.items()):
    print(f'{m:16} {v:14} {r["nnz_budget"]:6}/{r["row_budget"]:<5} {r["tasks"]:6} {r["ms_per_iteration"]*1e3:8.2f} us {100*r["fraction_of_bound"]:4.0f}% vs graph {r["vs_graph"]:.2f} vs kernels {r["vs_kernels"]:.2f}')
PY
