#!/usr/bin/env bash
# The tables with rolled probe loops (smaller code).
python3 - <<'PY'
p='tasks/rcm/rcm_tasks.cu'
s=open(p).read()
a="""  for (unsigned s = table_home(v);; s = (s + 1) & (kTableSlots - 1)) {  // never full: ends"""
assert a in s; s=s.replace(a,"#pragma unroll 1\n"+a)
a="""  for (int probe = 0; probe < probes; ++probe, s = (s + 1) & (kTableSlots - 1)) {"""
assert a in s; s=s.replace(a,"#pragma unroll 1\n"+a)
open(p,'w').write(s)
PY
