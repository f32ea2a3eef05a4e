#!/usr/bin/env python3
"""Warp-state samples of Y1's megakernel by function: y1_regions.py logs/y1_source_sass.csv.gz.

The SASS listing (ncu --page source --csv --print-source sass) is one row per instruction,
16 bytes apart from the kernel's first; each CALL.REL names its callee's address, which
starts a function that runs to the start of the next. Prints each function's share of
the samples and its five largest stall reasons, and the ten instructions with most samples.
"""
import csv
import gzip
import sys

rows = list(csv.reader(gzip.open(sys.argv[1], "rt")))
head = next(i for i, r in enumerate(rows) if r and r[0] == "Address")
h, data = rows[head], rows[head + 1:]
col = {c: h.index(c) for c in h}
samples = col["Warp Stall Sampling (All Samples)"]
reasons = [c for c in h if c.startswith("stall_") and "Not Issued" not in c]
num = lambda r, c: int(r[col[c]]) if r[col[c]].isdigit() else 0
base = int(data[0][0], 16)
starts = sorted({0} | {(int(r[1].split()[-1], 16) - base) // 16 for r in data if "CALL.REL" in r[1]})
total = sum(num(r, h[samples]) for r in data)
for a, b in zip(starts, starts[1:] + [len(data)]):
    part = data[a:b]
    s = sum(num(r, h[samples]) for r in part)
    top = sorted(((sum(num(r, c) for r in part), c) for c in reasons), reverse=True)[:5]
    print(f"instructions {a}-{b - 1}: {s} samples, {100 * s / total:.1f}%;", ", ".join(f"{c} {n}" for n, c in top))
print("most sampled:")
for i, r in sorted(enumerate(data), key=lambda ir: -num(ir[1], h[samples]))[:10]:
    top = max(reasons, key=lambda c: num(r, c))
    print(f"  {i}: {num(r, h[samples])} ({top}) {r[1].strip()}")
