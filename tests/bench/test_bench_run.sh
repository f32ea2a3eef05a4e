#!/usr/bin/env bash
# Host checks of the benchmark entry point (bench/run) and its summary (bench/summarize.py).
#   test_bench_run.sh no-gpu     without a GPU: one line, exit 1 (skipped, 77, on a GPU machine)
#   test_bench_run.sh bad-set    an unknown --set is refused with exit 2
#   test_bench_run.sh bad-only   an unknown --only benchmark is refused with exit 2
#   test_bench_run.sh summary    summarize.py on committed results reproduces their figures
#   test_bench_run.sh commit     the commit a results folder names (scripts/tree-commit.sh)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
case ${1:-} in
  no-gpu)
    if nvidia-smi -L >/dev/null 2>&1; then echo "a GPU is present: nothing to check here"; exit 77; fi
    err=$("$root/bench/run" 2>&1 >/dev/null); rc=$?
    [[ $rc -eq 1 ]] || { echo "exit $rc, expected 1"; exit 1; }
    [[ $(printf '%s\n' "$err" | wc -l) -eq 1 && $err == "bench/run: no GPU available"* ]] || { echo "stderr: $err"; exit 1; } ;;
  bad-set)
    err=$("$root/bench/run" --set huge 2>&1 >/dev/null); rc=$?
    [[ $rc -eq 2 && $err == *"--set takes quick or full"* ]] || { echo "exit $rc, stderr: $err"; exit 1; } ;;
  bad-only)
    err=$("$root/bench/run" --only runtime,sptrsv,nbody 2>&1 >/dev/null); rc=$?
    [[ $rc -eq 2 && $err == *"--only: unknown benchmark 'nbody'"* && $(printf '%s\n' "$err" | wc -l) -eq 1 ]] ||
      { echo "exit $rc, stderr: $err"; exit 1; } ;;
  summary)
    dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
    cp "$root"/docs/results/2026-11-22-h200-apps/*.json "$dir"/
    python3 "$root/bench/summarize.py" "$dir" >/dev/null || exit 1
    grep -q "Faster than cuSPARSE on 7 of 30 matrices (1 of 12 with >= 10^4 rows" "$dir/summary.md" || { cat "$dir/summary.md"; exit 1; }
    grep -q "| bcsstk13 | 2003 | 42943 | 577 | 2048 | 1 / 1 |" "$dir/summary.md" || { grep bcsstk13 "$dir/summary.md"; exit 1; }
    # An RCM file from before the tasks variant: cub rows, no range.
    grep -q "| random_spd:1e6x8 scrambled | 1000000 | 7999640 | 999012 | cub | 583162 | 12.695 | - | 22.98x | 108.49x | yes |" \
      "$dir/summary.md" || { grep random_spd "$dir/summary.md"; exit 1; }
    grep -q "| dependency hop (chain of 10000) | 2.65 us/hop (-) | kernel launch per hop: 3.19 | <= 1 us: not yet |" \
      "$dir/summary.md" || { grep -A8 "## Headline" "$dir/summary.md"; exit 1; }
    # PCG files from before the task loop: every row is the host loop.
    grep -q "| poisson2d:200 | natural | cusparse-ic0 | host | 189 | 230.78 | - | 1.00x | 8.6e-09 | converged |" \
      "$dir/summary.md" || { grep -A4 "## PCG" "$dir/summary.md"; exit 1; }
    for s in "## Headline" "## Jacobi" "## RCM" "## PCG" "## Runtime"; do grep -q "$s" "$dir/summary.md" || { echo "no section $s"; exit 1; }; done
    # Jacobi rows name their nnz budget ("-" in files from before bench_jacobi --nnz-budget).
    grep -q "| dd:526:11:27 | 9934 | - | kernels | - | 21.11 | - | 1.00x | 0.42x | 0% |" "$dir/summary.md" ||
      { grep "dd:526:" "$dir/summary.md"; exit 1; }
    cp "$root"/docs/results/2026-11-24-h100-session9/bench_jacobi_sweep.json "$dir"/bench_jacobi.json
    python3 "$root/bench/summarize.py" "$dir" >/dev/null || exit 1
    grep -q "| dd:526316:11:27 | 9999749 | 4096 | autonomous | megakernel | 230.52 | 230.16..230.53 | 0.59x | 0.53x | 19% |" \
      "$dir/summary.md" || { grep "dd:526316:" "$dir/summary.md"; exit 1; }
    # The current format: one row per method, with the range of the repetitions.
    cp "$root"/docs/results/2026-11-24-h100-session6/bench_rcm.json "$dir"/
    python3 "$root/bench/summarize.py" "$dir" >/dev/null || exit 1
    grep -q "| random_spd:1e6x8 scrambled | 1000000 | 7999640 | 999012 | tasks megakernel | 583162 | 18.499 | 17.480..18.511 | 22.07x | 116.59x | yes |" \
      "$dir/summary.md" || { grep random_spd "$dir/summary.md"; exit 1; }
    # A triangular solve since session 41 names its task width with n_max.
    python3 - "$dir/sptrsv.json" <<'PY' || exit 1
import json, sys
runs = json.load(open(sys.argv[1]))
for c in runs:
    if c["matrix"] == "bcsstk13":
        c["threads"] = 512
json.dump(runs, open(sys.argv[1], "w"))
PY
    python3 "$root/bench/summarize.py" "$dir" >/dev/null || exit 1
    grep -q "| bcsstk13 | 2003 | 42943 | 577 | 2048 x 512 | 1 / 1 |" "$dir/summary.md" || { grep bcsstk13 "$dir/summary.md"; exit 1; }
    # A folder written in two calls (bench/run --only): each part is named.
    cat >"$dir/results.json" <<'JSON'
{"gpu": "NVIDIA H100 80GB HBM3", "driver": "580.159.04", "cuda": "13.0", "commit": "aaaaaaa", "command": "bench/run --set full --only runtime",
 "date": "2026-11-24T10:00:00", "parts": [
  {"commit": "aaaaaaa", "command": "bench/run --set full --only runtime", "benchmarks": ["runtime"], "date": "2026-11-24T10:00:00"},
  {"commit": "bbbbbbb", "command": "bench/run --set full --only sptrsv,rcm", "benchmarks": ["sptrsv", "rcm"], "date": "2026-11-24T10:20:00"}]}
JSON
    python3 "$root/bench/summarize.py" "$dir" >/dev/null || exit 1
    grep -q "^Written in 2 parts:" "$dir/summary.md" &&
      grep -q '^- sptrsv, rcm: commit bbbbbbb; 2026-11-24T10:20:00; command `bench/run --set full --only sptrsv,rcm`$' "$dir/summary.md" ||
      { head -12 "$dir/summary.md"; exit 1; } ;;
  commit)
    dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
    git -C "$dir" init -q && echo a >"$dir/f" && git -C "$dir" add f &&
      git -C "$dir" -c user.name=t -c user.email=t@t commit -qm one || exit 1
    head=$(git -C "$dir" rev-parse --short HEAD)
    got=$(APIARY_COMMIT= "$root/scripts/tree-commit.sh" "$dir"); [[ $got == "$head" ]] || { echo "clean: $got"; exit 1; }
    echo b >"$dir/f"
    got=$(APIARY_COMMIT= "$root/scripts/tree-commit.sh" "$dir"); [[ $got == "$head+modified" ]] || { echo "modified: $got"; exit 1; }
    got=$(APIARY_COMMIT=abc1234 "$root/scripts/tree-commit.sh" "$dir"); [[ $got == abc1234 ]] || { echo "override: $got"; exit 1; }
    got=$(APIARY_COMMIT= "$root/scripts/tree-commit.sh" "$dir/../no-such-dir-$$"); [[ $got == unknown ]] || { echo "no git: $got"; exit 1; } ;;
  *) echo "usage: $0 no-gpu|bad-set|bad-only|summary|commit"; exit 2 ;;
esac
