#!/usr/bin/env bash
# Installs what Apiary builds against, from Debian's packages; never downloads
# anything else. Run as root it installs the missing packages; otherwise it prints
# the one apt-get command to run and fails. With --plots it also installs matplotlib, which
# the plotting scripts in bench/ need (building and testing do not).
set -euo pipefail

packages=(cmake ninja-build g++ libfmt-dev libgtest-dev libcli11-dev nlohmann-json3-dev zlib1g-dev python3)
[[ "${1:-}" == "--plots" ]] && packages+=(python3-matplotlib)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  if [[ $(id -u) -eq 0 ]]; then
    echo "install-deps: installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "install-deps: missing packages; run: sudo apt-get install ${missing[*]}" >&2
    exit 1
  fi
fi

if ! command -v nvcc >/dev/null 2>&1 && [[ ! -x /usr/local/cuda/bin/nvcc ]]; then
  echo "install-deps: the CUDA 13 toolkit (nvcc) was not found: install NVIDIA's cuda-toolkit-13 package" >&2
  exit 1
fi
