#!/usr/bin/env python3
"""Fits the TASSL performance model (the paper's eq. 5, plus a start per solve) to
measured solve times, one set of constants per task width.

    python3 bench/fit_sptrsv_model.py sweep.csv [variant]

Pure Python (no numpy needed). sweep.csv comes from `bench_sptrsv --sweep`: per matrix,
n_max and task width (threads), the model's terms (sub-graph levels, external and
internal slot rounds along the slowest path) and the measured kernel time of tassl-deps
(or the wall time of tassl-kernels). A non-negative least squares fit per width of
    time = start + alpha * levels + tau_ext * ext_slots + tau_int * int_slots
prints the constants to put into kDefaultModel and kWideModel
(tasks/sptrsv/analysis.hpp), and how well the model then ranks n_max, the width and the
split per matrix. A sweep without a threads column (before session 41) is one width, 256;
one without a split column (before session 42) is all split by the heuristic.
"""
import csv
import sys
from collections import defaultdict



def solve(m, v):
    """Gaussian elimination for a small dense system."""
    n = len(v)
    a = [row[:] + [v[i]] for i, row in enumerate(m)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(a[r][c]))
        a[c], a[p] = a[p], a[c]
        for r in range(n):
            if r != c and a[c][c] != 0:
                f = a[r][c] / a[c][c]
                a[r] = [x - f * y for x, y in zip(a[r], a[c])]
    return [a[i][n] / a[i][i] if a[i][i] != 0 else 0.0 for i in range(n)]


def nnls(rows, t):
    """Least squares with non-negative coefficients (drop a negative one and refit)."""
    active = list(range(len(rows[0])))
    while True:
        m = [[sum(r[i] * r[j] for r in rows) for j in active] for i in active]
        v = [sum(r[i] * y for r, y in zip(rows, t)) for i in active]
        c = solve(m, v)
        if all(x >= 0 for x in c) or len(active) == 1:
            out = [0.0] * len(rows[0])
            for i, x in zip(active, c):
                out[i] = max(x, 0.0)
            return out
        active.pop(min(range(len(c)), key=lambda k: c[k]))


def fit(rows):
    a = [[1.0, float(r["levels"]), float(r["path_external_slots"]), float(r["path_internal_slots"])] for r in rows]
    t = [float(r["kernel_ms"] or r["solve_ms"]) * 1e-3 for r in rows]
    # Relative errors matter (times span four decades): weight each row by 1 / time.
    coef = nnls([[x / y for x in r] for r, y in zip(a, t)], [1.0] * len(t))
    pred = [sum(c * x for c, x in zip(coef, r)) for r in a]
    return coef, pred, t


def label(key):
    n_max, threads, split = key
    return f"{n_max:5d} x {threads:3d} {split}"


def main(path, variant):
    rows = [r for r in csv.DictReader(open(path)) if r["variant"] == variant]
    by_width = defaultdict(list)
    for r in rows:
        by_width[int(r.get("threads") or 256)].append(r)
    by_matrix = defaultdict(list)  # ((n_max, threads, split), predicted, measured)
    for threads, rs in sorted(by_width.items()):
        coef, pred, t = fit(rs)
        start, alpha, tau_ext, tau_int = coef
        print(f"{variant}, {threads} threads: start {start * 1e6:.3f} us, alpha {alpha * 1e6:.3f} us, "
              f"tau_external {tau_ext * 1e6:.4f} us, tau_internal {tau_int * 1e6:.4f} us")
        print(f"  ModelConstants{{{alpha:.3e}, {tau_ext:.3e}, {tau_int:.3e}, {threads}, {start:.3e}}}")
        errors = sorted(abs(p - y) / y for p, y in zip(pred, t))
        print(f"  median relative error {errors[len(errors) // 2]:.2%}")
        for r, p, m in zip(rs, pred, t):
            by_matrix[r["matrix"]].append(((int(r["n_max"]), threads, r.get("split") or "heuristic"), p, m))
    hits = 0
    worst = 1.0
    for name, xs in by_matrix.items():
        best_pred = min(xs, key=lambda x: x[1])
        best_meas = min(xs, key=lambda x: x[2])
        loss = best_pred[2] / best_meas[2]
        worst = max(worst, loss)
        hits += best_pred[0] == best_meas[0]
        print(f"  {name:24s} model picks n_max {label(best_pred[0])} ({best_pred[2] * 1e3:.3f} ms), "
              f"best {label(best_meas[0])} ({best_meas[2] * 1e3:.3f} ms): {loss:.2f}x")
    print(f"model's (n_max, threads, split) is the measured best on {hits} of {len(by_matrix)} matrices; "
          f"worst choice {worst:.2f}x the best")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "tassl-deps")
