# Sourced by the set-up scripts: puts the CUDA toolkit on PATH when it is installed
# in its default place but not on PATH.
if ! command -v nvcc >/dev/null 2>&1 && [[ -x /usr/local/cuda/bin/nvcc ]]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi
export CUDACXX=${CUDACXX:-$(command -v nvcc)}
jobs=$(nproc 2>/dev/null || echo 2)
