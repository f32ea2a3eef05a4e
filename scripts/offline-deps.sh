#!/usr/bin/env bash
# For a build machine without a package registry (a lent GPU box, an air-gapped node):
#   scripts/offline-deps.sh fetch          # here, with apt: download the -dev packages into .deps/
#   scripts/offline-deps.sh unpack PREFIX  # there: unpack them into PREFIX (not /)
# then configure with -DCMAKE_PREFIX_PATH=PREFIX/usr. .deps/ is git-ignored.
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(libfmt-dev libfmt9 libgtest-dev libcli11-dev nlohmann-json3-dev zlib1g-dev zlib1g)
case "${1:-}" in
  fetch)
    mkdir -p .deps
    (cd .deps && apt-get download "${packages[@]}")
    ;;
  unpack)
    prefix=${2:?usage: offline-deps.sh unpack PREFIX}
    mkdir -p "$prefix"
    for deb in .deps/*.deb; do dpkg -x "$deb" "$prefix"; done
    echo "$prefix/usr"
    ;;
  *)
    echo "usage: scripts/offline-deps.sh fetch | unpack PREFIX" >&2
    exit 2
    ;;
esac
