#!/usr/bin/env bash
# Narrow::execute out of line.
python3 - <<'PY'
p='tasks/rcm/rcm_tasks.cu'
s=open(p).read()
a=s.index("struct Narrow {")
b=s.index("__device__ static void execute(", a)
s=s[:b]+"__device__ __noinline__ static void execute("+s[b+len("__device__ static void execute("):]
open(p,'w').write(s)
PY
grep -c "__noinline__ static void execute" tasks/rcm/rcm_tasks.cu
