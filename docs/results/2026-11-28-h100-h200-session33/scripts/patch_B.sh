#!/usr/bin/env bash
# The untested bitmap change (narrow_bfs_bitmap_untested.diff) applied to a copy of the tree; $1 is the repository root.
d=$1/docs/results/2026-11-28-h100-h200-session33/scripts/narrow_bfs_bitmap_untested.diff
git apply "$d" 2>/dev/null || patch -p1 < "$d"
