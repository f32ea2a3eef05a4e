#!/usr/bin/env bash
# Prints the commit a results folder should name: the short hash of HEAD, with
# "+modified" when tracked files differ from it (a copy of the tree whose git metadata is
# older than its files says so instead of naming a commit it does not hold); APIARY_COMMIT
# overrides (a copy without .git, or whose metadata is known to be stale); "unknown"
# outside git.
#   scripts/tree-commit.sh [DIR]   (default: the repository this script is in)
set -uo pipefail
dir=${1:-$(cd "$(dirname "$0")/.." && pwd)}
if [[ -n ${APIARY_COMMIT:-} ]]; then echo "$APIARY_COMMIT"; exit 0; fi
head=$(git -C "$dir" rev-parse --short HEAD 2>/dev/null) || { echo unknown; exit 0; }
if [[ -n $(git -C "$dir" status --porcelain --untracked-files=no 2>/dev/null) ]]; then
  echo "$head+modified"
else
  echo "$head"
fi
