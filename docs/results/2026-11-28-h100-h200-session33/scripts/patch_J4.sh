#!/usr/bin/env bash
# Experiment (not run in session 33): the megakernel asks for 4 blocks of 256 threads per SM (64 registers a thread)
# instead of 2, for every program; measured on Jacobi only (32 warps per SM for its row tasks instead of 24).
python3 - <<'PY'
p='schedulers/megakernel.cuh'
s=open(p).read()
a="static constexpr int min_blocks = block_threads <= 256 ? 2 : 1;"
assert a in s
s=s.replace(a,"static constexpr int min_blocks = block_threads <= 256 ? 4 : 1;",1)
open(p,'w').write(s)
PY
