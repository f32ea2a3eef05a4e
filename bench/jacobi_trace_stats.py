#!/usr/bin/env python3
"""Where a Jacobi iteration's time goes, from the trace of an autonomous run (one task
type, the row tasks): `bench_jacobi --trace PREFIX` or `apiary jacobi --trace PREFIX`. The row tasks are
taken in the order they started, `tasks` at a time per iteration (every task of an
iteration starts before any of the next: the next is released by the last arrival).
Printed, as medians over the steady iterations (all but the first and last 20):

  period      first start of an iteration to the first start of the next
  spread      first to last start within an iteration
  duration    task durations: median, 90th percentile, and the longest but one (the
              longest is the last to arrive, which also releases the next iteration,
              sums the change and decides)
  gap         the longest-but-one end to the next iteration's first start

    python3 bench/jacobi_trace_stats.py --tasks 99 run-dd:5263:11:27-a1024-autonomous-megakernel.json
"""
import argparse
import gzip
import json
import statistics


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        events = json.load(f)["traceEvents"]
    return sorted((e["ts"], e["dur"]) for e in events if e.get("ph") == "X")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("traces", nargs="+", help="Chrome trace JSON files (.json or .json.gz)")
    parser.add_argument("--tasks", type=int, required=True, help="row tasks per iteration (bench_jacobi's `tasks`)")
    args = parser.parse_args()
    for path in args.traces:
        events = load(path)
        iterations = [events[i:i + args.tasks] for i in range(0, len(events) - args.tasks + 1, args.tasks)]
        rows = []
        for i in range(20, len(iterations) - 21):
            cur, nxt = iterations[i], iterations[i + 1]
            first = cur[0][0]
            durations = sorted(d for _, d in cur)
            ends = sorted(s + d for s, d in cur)
            rows.append((nxt[0][0] - first, cur[-1][0] - first, statistics.median(durations),
                         durations[int(0.9 * len(durations))], durations[-2], nxt[0][0] - ends[-2]))
        if not rows:
            print(f"{path}: too few iterations ({len(iterations)}; at least 42 are needed)")
            continue
        med = [statistics.median(column) for column in zip(*rows)]
        print(f"{path}: {len(events)} tasks, {len(rows)} steady iterations (us): period {med[0]:.2f}, "
              f"spread {med[1]:.2f}, duration p50 {med[2]:.2f} p90 {med[3]:.2f} longest-but-one {med[4]:.2f}, "
              f"gap {med[5]:.2f}")


if __name__ == "__main__":
    main()
