#!/usr/bin/env bash
# Session 37: Rank's environment copy, tile and window in shared memory (session 36's prepared diff).
git apply "$1/docs/results/2026-11-28-h200-session36/scripts/rank_state_in_shared.diff" 2>&1 || patch -p1 < "$1/docs/results/2026-11-28-h200-session36/scripts/rank_state_in_shared.diff"
