#!/usr/bin/env python3
"""Scheduler comparison bars from bench_runtime's JSON: for every benchmark, each
scheduler's figure relative to the megakernel's (> 1: faster than the megakernel).

    python3 bench/plot_schedulers.py bench_runtime.json -o schedulers.png
"""
import argparse
import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("json")
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args()
    results = json.load(open(args.json))["results"]
    benchmarks, schedulers, value = [], [], {}
    for r in results:
        if "ratio_vs_megakernel" not in r:
            continue
        key = r["benchmark"]
        if (key, r["scheduler"]) in value:
            continue  # the same figure against a second baseline
        if key not in benchmarks:
            benchmarks.append(key)
        if r["scheduler"] not in schedulers:
            schedulers.append(r["scheduler"])
        value[(key, r["scheduler"])] = r["ratio_vs_megakernel"]
    width = 0.8 / max(1, len(schedulers))
    fig, ax = plt.subplots(figsize=(10, 0.45 * len(benchmarks) + 1.5))
    for k, s in enumerate(schedulers):
        ys = [i + (k - (len(schedulers) - 1) / 2) * width for i in range(len(benchmarks))]
        ax.barh(ys, [value.get((b, s), 0) for b in benchmarks], height=width, label=s)
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_yticks(range(len(benchmarks)), benchmarks)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel("speed relative to the megakernel (> 1: faster)")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    print(args.output)


if __name__ == "__main__":
    main()
