#!/usr/bin/env python3
"""Draw the scheduling plot of a run from its trace (Chrome trace-event JSON written
by Apiary): one row per SM, one bar per task, coloured by task type.

    python3 bench/plot_schedule.py trace.json -o schedule.png [--title TEXT]
"""
import argparse
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402


def load(path):
    with open(path) as f:
        doc = json.load(f)
    events = [e for e in doc.get("traceEvents", []) if e.get("ph") == "X"]
    if not events:
        sys.exit(f"plot_schedule: {path} holds no task events (was the run traced?)")
    return doc, events


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("trace", help="trace JSON written by a traced run")
    ap.add_argument("-o", "--output", default="schedule.png", help="image to write (PNG, SVG, PDF)")
    ap.add_argument("--title", default=None)
    args = ap.parse_args()

    doc, events = load(args.trace)
    names = sorted({e["name"] for e in events})
    cmap = plt.get_cmap("tab20" if len(names) > 10 else "tab10")
    colour = {n: cmap(i % cmap.N) for i, n in enumerate(names)}
    sms = sorted({int(e["tid"]) for e in events})
    row = {sm: i for i, sm in enumerate(sms)}

    height = max(3.0, min(0.06 * len(sms) + 1.5, 14.0))
    fig, ax = plt.subplots(figsize=(12, height))
    by_type = {n: [] for n in names}
    for e in events:
        by_type[e["name"]].append(e)
    for n in names:
        for e in by_type[n]:
            ax.broken_barh([(e["ts"], max(e["dur"], 1e-3))], (row[int(e["tid"])] - 0.4, 0.8),
                           facecolors=colour[n], linewidth=0)
    end = max(e["ts"] + e["dur"] for e in events)
    ax.set_xlim(0, end * 1.01)
    ax.set_ylim(-1, len(sms))
    ax.set_xlabel("time since the first task started [µs]")
    ax.set_ylabel("SM")
    step = max(1, len(sms) // 16)
    ax.set_yticks(range(0, len(sms), step))
    ax.set_yticklabels([str(sms[i]) for i in range(0, len(sms), step)])
    scheduler = doc.get("otherData", {}).get("scheduler", "")
    ax.set_title(args.title or f"{args.trace} ({scheduler}, {len(events)} tasks, {end:.1f} µs)")
    ax.legend(handles=[Patch(color=colour[n], label=n) for n in names], loc="upper right", fontsize=8,
              ncol=max(1, len(names) // 12 + 1))
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    print(f"plot_schedule: wrote {args.output} ({len(events)} tasks on {len(sms)} SMs)")


if __name__ == "__main__":
    main()
