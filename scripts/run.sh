#!/usr/bin/env bash
# The main job: installs missing packages, builds the `apiary` CLI and runs its demo
# on a generated matrix (no download). Without a GPU it says so and runs the
# host-side part (`apiary info`).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
source scripts/env.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$jobs" --target apiary
build/release/apps/apiary demo "$@"
