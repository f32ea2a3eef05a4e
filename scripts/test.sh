#!/usr/bin/env bash
# The test command: installs missing packages, configures and builds everything
# (release preset, nvcc for the device code) and runs every test with ctest.
# GPU tests skip with a visible reason on a machine without a GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
source scripts/env.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$jobs"
ctest --preset release -j "$jobs" "$@"
