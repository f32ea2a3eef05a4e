#!/usr/bin/env bash
# Session 35: timing of each RCM tasks set-up step (a device sync before each print).
git apply "$1/.run/setup_trace.diff" 2>/dev/null || patch -p1 < "$1/.run/trace.diff"
