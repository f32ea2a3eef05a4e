# Sourced by the set-up scripts: puts the CUDA toolkit on PATH when it is installed
# in its default place but not on PATH.
if ! command -v nvcc >/dev/null 2>&1 && [[ -x /usr/local/cuda/bin/nvcc ]]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi
export CUDACXX=${CUDACXX:-$(command -v nvcc)}
jobs=$(nproc 2>/dev/null || echo 2)
# With the .deb files of scripts/offline-deps.sh in .deps/ (a GPU machine without a package
# registry), configure against them: "${cmake_prefix_args[@]}" on the cmake line.
cmake_prefix_args=()
if compgen -G ".deps/*.deb" >/dev/null; then
  cmake_prefix_args=(-DCMAKE_PREFIX_PATH="$(scripts/offline-deps.sh unpack /tmp/apiary-deps)")
fi
