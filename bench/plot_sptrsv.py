#!/usr/bin/env python3
"""Scatter plot of bench_sptrsv's CSV: one point per matrix and variant, solve time of
cuSPARSE SpSV on x, speedup over it on y (above 1: faster than cuSPARSE), in the spirit
of Figure 10 of the TASSL paper.

    python3 bench/plot_sptrsv.py sptrsv.csv sptrsv.png
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

STYLE = {
    "tassl-deps": ("o", "tab:red"),
    "tassl-phases": ("s", "tab:orange"),
    "tassl-kernels": ("^", "tab:purple"),
    "levelset": ("v", "tab:green"),
    "syncfree": ("D", "tab:blue"),
}


def main(path, out):
    rows = list(csv.DictReader(open(path)))
    cusparse = {r["matrix"]: float(r["solve_ms"]) for r in rows if r["variant"] == "cusparse" and r["solve_ms"] != "nan"}
    fig, ax = plt.subplots(figsize=(8, 5))
    for variant, (marker, colour) in STYLE.items():
        xs, ys = [], []
        for r in rows:
            if r["variant"] != variant or r["matrix"] not in cusparse or r["solve_ms"] in ("", "nan"):
                continue
            xs.append(cusparse[r["matrix"]])
            ys.append(cusparse[r["matrix"]] / float(r["solve_ms"]))
        if xs:
            ax.scatter(xs, ys, marker=marker, color=colour, label=variant, alpha=0.8)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("cuSPARSE SpSV solve time (ms)")
    ax.set_ylabel("speedup over cuSPARSE SpSV")
    ax.set_title("Sparse triangular solve, one point per matrix")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=120)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
