#!/usr/bin/env bash
# bench_jacobi with row budgets: every variant at 10^6 / 10^7 / poisson3d:150 over (entries, rows) budgets.
set -uo pipefail
cd "$(dirname "$0")/.."
.run/setup.sh "-" "bench_jacobi"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
build/new/bench/bench_jacobi --iterations 50 --reps 3 --nnz 1e6,1e7 --spec poisson3d:150 --nnz-budget 4096,16384,65536 --row-budget 256,1024,4096 --json $OUT/bench_jacobi_rows.json > $OUT/bench_jacobi_rows.log 2>&1; echo "rc $?"
python3 - $OUT/bench_jacobi_rows.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
best = {}
for r in d["rows"]:
    k = (r["matrix"], r["variant"])
    if k not in best or r["ms_per_iteration"] < best[k]["ms_per_iteration"]: best[k] = r
for (m, v), r in sorted(best.items()):
    print(f'{m:16} {v:14} {r["nnz_budget"]:6}/{r["row_budget"]:<5} {r["tasks"]:6} {r["ms_per_iteration"]*1e3:8.2f} us {100*r["fraction_of_bound"]:4.0f}% vs graph {r["vs_graph"]:.2f}')
PY
