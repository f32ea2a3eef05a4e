#!/usr/bin/env python3
# Per-iteration timeline of an autonomous/stages trace: groups row tasks by start order.
import json, sys, statistics as st
path, chunks = sys.argv[1], int(sys.argv[2])
ev = [e for e in json.load(open(path))["traceEvents"] if e["name"] == "JacobiRows"]
ev.sort(key=lambda e: e["ts"])
its = [ev[i:i + chunks] for i in range(0, len(ev) - chunks + 1, chunks)]
period, spread, dur, gap = [], [], [], []
for k in range(len(its) - 1):
    g, n = its[k], its[k + 1]
    starts = [e["ts"] for e in g]
    ends = sorted(e["ts"] + e["dur"] for e in g)
    period.append(n[0]["ts"] - g[0]["ts"])
    spread.append(max(starts) - min(starts))
    dur += [e["dur"] for e in g]
    gap.append(n[0]["ts"] - (ends[-2] if len(ends) > 1 else ends[-1]))
def q(v):
    v = sorted(v); return f"median {st.median(v):.2f}  p10 {v[len(v)//10]:.2f}  p90 {v[(9*len(v))//10]:.2f}"
print(f"{path}: {len(ev)} row tasks, {len(its)} iterations of {chunks}")
print("  period (first start k -> first start k+1) us:", q(period))
print("  start spread within an iteration us:        ", q(spread))
print("  task duration us:                            ", q(dur))
print("  2nd-last end of k -> first start of k+1 us:  ", q(gap))
span = max(e["ts"] + e["dur"] for e in ev) - min(e["ts"] for e in ev)
busy = sum(e["dur"] for e in ev)
print(f"  span {span:.1f} us, task time {busy:.1f} us: {busy / span:.1f} tasks running on average")
