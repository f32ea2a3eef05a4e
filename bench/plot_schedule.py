#!/usr/bin/env python3
"""Draw the scheduling plot of a run from its trace (Chrome trace-event JSON written
by Apiary): one row per SM, one bar per task, coloured by task type. Several traces
draw as a grid of panels on one time axis (e.g. one program under each scheduler).

    python3 bench/plot_schedule.py trace.json -o schedule.png [--title TEXT]
    python3 bench/plot_schedule.py a.json b.json c.json -o grid.png --columns 3
"""
import argparse
import json
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.collections import PolyCollection  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402


def load(path):
    with open(path) as f:
        doc = json.load(f)
    events = [e for e in doc.get("traceEvents", []) if e.get("ph") == "X"]
    if not events:
        sys.exit(f"plot_schedule: {path} holds no task events (was the run traced?)")
    return doc, events


def draw(ax, events, colour, title):
    sms = sorted({int(e["tid"]) for e in events})
    row = {sm: i for i, sm in enumerate(sms)}
    # One collection of rectangles per task type: tens of thousands of tasks draw in
    # about a second (one artist per task took minutes).
    boxes = {}
    for e in events:
        x0, x1 = e["ts"], e["ts"] + max(e["dur"], 1e-3)
        y = row[int(e["tid"])]
        boxes.setdefault(e["name"], []).append([(x0, y - 0.4), (x1, y - 0.4), (x1, y + 0.4), (x0, y + 0.4)])
    for name, b in boxes.items():
        ax.add_collection(PolyCollection(b, facecolors=colour[name], linewidths=0))
    end = max(e["ts"] + e["dur"] for e in events)
    ax.set_ylim(-1, len(sms))
    step = max(1, len(sms) // 16)
    ax.set_yticks(range(0, len(sms), step))
    ax.set_yticklabels([str(sms[i]) for i in range(0, len(sms), step)])
    ax.set_xlabel("time since the first task started [µs]")
    ax.set_ylabel("SM")
    ax.set_title(f"{title} ({len(events)} tasks, {end:.1f} µs)", fontsize=10)
    return end


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("traces", nargs="+", help="trace JSON files written by traced runs")
    ap.add_argument("-o", "--output", default="schedule.png", help="image to write (PNG, SVG, PDF)")
    ap.add_argument("--title", default=None, help="title of the figure")
    ap.add_argument("--columns", type=int, default=1, help="panels per row when several traces are given")
    args = ap.parse_args()

    runs = [(path, *load(path)) for path in args.traces]
    names = sorted({e["name"] for _, _, events in runs for e in events})
    cmap = plt.get_cmap("tab20" if len(names) > 10 else "tab10")
    colour = {n: cmap(i % cmap.N) for i, n in enumerate(names)}

    columns = max(1, min(args.columns, len(runs)))
    rows = math.ceil(len(runs) / columns)
    sms = max(len({int(e["tid"]) for e in events}) for _, _, events in runs)
    height = max(3.0, min(0.06 * sms + 1.5, 14.0)) if len(runs) == 1 else 4.0
    fig, axes = plt.subplots(rows, columns, figsize=(12 if columns == 1 else 6 * columns, height * rows),
                             squeeze=False, sharex=len(runs) > 1)
    longest = 0.0
    for ax, (path, doc, events) in zip(axes.flat, runs):
        scheduler = doc.get("otherData", {}).get("scheduler", "")
        label = os.path.basename(path).removesuffix(".json")
        title = args.title if len(runs) == 1 and args.title else f"{label}" + (f" [{scheduler}]" if scheduler and scheduler not in label else "")
        end = draw(ax, events, colour, title)
        longest = max(longest, end)
    for ax in axes.flat[len(runs):]:
        ax.set_visible(False)
    for ax in axes.flat[: len(runs)]:
        ax.set_xlim(0, longest * 1.01)
    handles = [Patch(color=colour[n], label=n) for n in names]
    if len(runs) == 1:
        axes[0][0].legend(handles=handles, loc="upper right", fontsize=8, ncol=max(1, len(names) // 12 + 1))
    else:
        if args.title:
            fig.suptitle(args.title)
        fig.legend(handles=handles, loc="lower center", ncol=min(len(names), 12), fontsize=9)
    fig.tight_layout(rect=(0, 0.04 if len(runs) > 1 else 0, 1, 1))
    fig.savefig(args.output, dpi=110)
    tasks = sum(len(events) for _, _, events in runs)
    print(f"plot_schedule: wrote {args.output} ({len(runs)} trace(s), {tasks} tasks)")


if __name__ == "__main__":
    main()
