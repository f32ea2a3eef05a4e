#!/usr/bin/env python3
"""Writes summary.md for a results folder of bench/run: one table per application with
the ratios against its baselines, from the JSON files the benchmarks wrote there.

    python3 bench/summarize.py RESULTS_DIR

Missing files are skipped with a line saying so, so a partial run still gets a summary.
Pure Python (no numpy).
"""
import json
import math
import os
import re
import sys


def load(folder, name):
    path = os.path.join(folder, name)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def span(r, low="apiary_min", high="apiary_max", scale=1.0, form=".4g"):
    """The range of a result's repetitions, "-" for files written before ranges existed."""
    if low not in r or high not in r:
        return "-"
    return f"{r[low] * scale:{form}}..{r[high] * scale:{form}}"


def geomean(values):
    values = [v for v in values if v and v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return out


def sptrsv(data):
    rows, vs_cusparse, vs_syncfree, big = [], [], [], []
    for c in data:
        by = {r["variant"]: r for r in c["results"] if "error" not in r}
        cu, deps, sf = by.get("cusparse"), by.get("tassl-deps"), by.get("syncfree")
        if not (cu and deps):
            continue
        ratio = cu["solve_ms"] / deps["solve_ms"]
        vs_cusparse.append(ratio)
        if sf:
            vs_syncfree.append(sf["solve_ms"] / deps["solve_ms"])
        if c["n"] >= 10000:
            big.append(ratio)
        # The task width since session 41 (files from before it have none: 256 threads).
        n_max = f'{c["n_max"]} x {c["threads"]}' if "threads" in c else str(c["n_max"])
        rows.append([c["matrix"], c["n"], c["nnz"], c["row_levels"], n_max,
                     f'{c["subgraphs"]} / {c["subgraph_levels"]}', f'{cu["solve_ms"]:.4f}', f'{deps["solve_ms"]:.4f}',
                     span(deps, "min_ms", "max_ms", form=".4f"), f"{ratio:.2f}x"])
    out = ["## Sparse triangular solve (tassl-deps against cuSPARSE SpSV)", ""]
    out += table(["matrix", "n", "nnz", "row levels", "n_max x threads", "sub-graphs / levels", "cuSPARSE ms",
                  "tassl-deps ms",
                  "tassl-deps range", "speedup"], rows)
    faster = sum(1 for r in big if r > 1)
    out += ["", f"Faster than cuSPARSE on {sum(1 for r in vs_cusparse if r > 1)} of {len(vs_cusparse)} matrices "
                f"({faster} of {len(big)} with >= 10^4 rows; goal: >= 90%); geometric-mean speedup "
                f"{geomean(vs_cusparse):.2f}x over all, {geomean(big):.2f}x over those (goal >= 2x); faster than "
                f"sync-free on {sum(1 for r in vs_syncfree if r > 1)} of {len(vs_syncfree)}.", ""]
    return out


def jacobi(data):
    rows = []
    for r in data["rows"]:
        # The budget of entries per task, and of rows where the file has it ("512/256").
        budget = r.get("nnz_budget", "-")
        if "row_budget" in r:
            budget = f'{budget}/{r["row_budget"]}'
        if r.get("auto_budget"):
            budget = f"auto: {budget}"
        rows.append([r["matrix"], r["nnz"], budget, r["variant"], r.get("scheduler") or "-",
                     f'{r["ms_per_iteration"] * 1e3:.2f}',
                     span(r, "ms_per_iteration_min", "ms_per_iteration_max", 1e3, ".2f"),
                     f'{r["vs_kernels"]:.2f}x', f'{r["vs_graph"]:.2f}x', f'{100 * r["fraction_of_bound"]:.0f}%'])
    return (["## Jacobi (median time per iteration and its range; ratios: baseline time / this time)", ""] +
            table(["matrix", "nnz", "budget (nnz/rows)", "variant", "scheduler", "us/iter", "range", "vs kernels",
                   "vs graph", "of bound"],
                  rows) + [""])


def rcm(data):
    rows = []
    for r in data:
        gpu = r.get("gpu_ms", r.get("gpu_cub_ms"))  # folders before the tasks variant: cub only
        rows.append([r["matrix"], r["n"], r["nnz"], r["bandwidth_before"], r.get("method", "cub"), r["bandwidth_after"],
                     f'{gpu:.3f}', span(r, "gpu_min_ms", "gpu_max_ms", form=".3f"), f'{r["serial_ms"] / gpu:.2f}x',
                     f'{r["cusolver_ms"] / gpu:.2f}x', "yes" if r["same_as_reference"] else "no"])
    return (["## RCM (median GPU time with its range; ratios: baseline time / GPU time)", ""] +
            table(["matrix", "n", "nnz", "bandwidth before", "method", "after", "GPU ms", "range", "vs serial",
                   "vs cuSOLVER", "same as serial"], rows) + [""])


def pcg(data):
    rows = []
    for m in data:
        for r in m["results"]:
            if "error" in r:
                rows.append([m["matrix"], r["order"], r["solver"], r.get("loop", "host"), "-", "-", "-", "-", "-",
                             "failed: " + r["error"]])
                continue
            speedup = r.get("speedup_vs_cusparse")
            rows.append([m["matrix"], r["order"], r["solver"], r.get("loop", "host"), r["iterations"],
                         f'{r["solve_ms"]:.2f}', span(r, "min_ms", "max_ms", form=".2f"),
                         f"{speedup:.2f}x" if speedup is not None else "-", f'{r["true_residual"]:.1e}', r["status"]])
    return (["## PCG (median time to solution and its range; speedup against cuSPARSE IC(0) PCG of the same "
             "ordering; loop: host = kernel by kernel from the host, tasks = one task program)", ""] +
            table(["matrix", "ordering", "solver", "loop", "iterations", "solve ms", "range", "vs cuSPARSE",
                   "true residual", "status"], rows) + [""])


def runtime(data):
    rows = []
    for r in data["results"]:
        rows.append([r["benchmark"], r["scheduler"], f'{r["apiary"]:.4g} {r["unit"]}', span(r), r["baseline"],
                     f'{r["baseline_value"]:.4g}', f'{r["ratio_apiary_better"]:.2f}x'])
    return ([f'## Runtime micro-benchmarks (median of {data.get("reps", "?")} runs after a warm-up, their range; '
             "ratio > 1: Apiary better than the baseline)", ""] +
            table(["benchmark", "scheduler", "Apiary", "min..max", "baseline", "baseline value", "ratio"], rows) + [""])


def parse_rate(folder):
    """(parser MB/s, istream MB/s) from bench_mtx_parse.log, or None."""
    path = os.path.join(folder, "bench_mtx_parse.log")
    if not os.path.exists(path):
        return None
    m = re.search(r"parse_matrix_market: ([0-9.]+) MB/s.*baseline istream: ([0-9.]+) MB/s", open(path).read())
    return (float(m.group(1)), float(m.group(2))) if m else None


# The README's headline table: (benchmark, baseline, goal text, goal test on the value).
HEADLINE = [("trivial tasks, worker size 1", "one plain kernel", ">= 10^9/s", lambda v: v >= 1e9),
            ("trivial tasks, worker size 32", "one plain kernel", ">= 10^9/s", lambda v: v >= 1e9),
            ("dependency hop (chain of 10000)", "kernel launch per hop", "<= 1 us", lambda v: v <= 1),
            ("dependency hop (chain of 10000)", "CUDA graph node", "<= 1 us", lambda v: v <= 1),
            ("phase switch (one task per phase)", "kernel launch per phase", "<= 3 us", lambda v: v <= 3)]


def headline(folder, data):
    """The README's headline table, megakernel figures, from this run."""
    rows = []
    for name, base, goal, met in HEADLINE:
        for r in data["results"]:
            if r["benchmark"] == name and r["baseline"] == base and r["scheduler"] == "megakernel":
                rows.append([name, f'{r["apiary"]:.3g} {r["unit"]} ({span(r)})',
                             f'{base}: {r["baseline_value"]:.3g}', f'{goal}: {"met" if met(r["apiary"]) else "not yet"}'])
    rate = parse_rate(folder)
    if rate:
        rows.append(["Matrix Market parsing (one CPU core)", f"{rate[0]:.0f} MB/s", f"istream parser: {rate[1]:.0f} MB/s",
                     f'>= 100 MB/s: {"met" if rate[0] >= 100 else "not yet"}'])
    return (["## Headline (the README's table; megakernel, median and range)", ""] +
            table(["benchmark", "Apiary", "baseline in the same run", "goal"], rows) + [""])


SECTIONS = [("sptrsv.json", sptrsv), ("bench_jacobi.json", jacobi), ("bench_rcm.json", rcm),
            ("bench_pcg.json", pcg), ("bench_runtime.json", runtime)]


def main(folder):
    lines = ["# Benchmark summary", ""]
    meta = load(folder, "results.json")
    if meta:
        lines += [f'GPU {meta.get("gpu", "?")}, driver {meta.get("driver", "?")}, {meta.get("cuda", "?")}; commit '
                  f'{meta.get("commit", "?")}; {meta.get("date", "?")}; command `{meta.get("command", "?")}`', ""]
        parts = meta.get("parts", [])
        if len(parts) > 1:  # bench/run --only, several calls into one folder
            lines += [f"Written in {len(parts)} parts:", ""]
            lines += [f'- {", ".join(p.get("benchmarks", []))}: commit {p.get("commit", "?")}; {p.get("date", "?")}; '
                      f'command `{p.get("command", "?")}`' for p in parts]
            lines += [""]
    runtime_data = load(folder, "bench_runtime.json")
    if runtime_data is not None:
        lines += headline(folder, runtime_data)
    for name, section in SECTIONS:
        data = load(folder, name)
        lines += section(data) if data is not None else [f"({name} missing: that benchmark did not run)", ""]
    with open(os.path.join(folder, "summary.md"), "w") as f:
        f.write("\n".join(lines))
    print(os.path.join(folder, "summary.md"))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
