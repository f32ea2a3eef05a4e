#!/usr/bin/env bash
# Experiment (session 43): seeds always from mapped host memory (as before 43), all else as the working tree.
python3 - <<'PY'
p='runtime/runtime.cuh'
s=open(p).read()
a="const bool in_parameters = seed_bytes <= sizeof(r.inline_seeds);"
assert s.count(a)==1
s=s.replace(a,"const bool in_parameters = seed_bytes == 0;")
open(p,'w').write(s)
PY
