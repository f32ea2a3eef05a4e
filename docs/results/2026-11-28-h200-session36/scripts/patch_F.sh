#!/usr/bin/env bash
# Session 36 experiment F: a plain shared load filters the bitmap claims (atomic only where the bit is clear).
python3 - <<'PY'
p = 'tasks/rcm/rcm_tasks.cu'
s = open(p).read()
old = '''  for (int i = 0; i < kPassItems; ++i) old[i] = v[i] >= 0 ? atomicOr(visited + (v[i] >> 5), 1u << (v[i] & 31)) : ~0u;'''
new = '''  for (int i = 0; i < kPassItems; ++i) old[i] = v[i] >= 0 ? visited[v[i] >> 5] : ~0u;
#pragma unroll
  for (int i = 0; i < kPassItems; ++i)
    if ((old[i] & (1u << (v[i] & 31))) == 0) old[i] = atomicOr(visited + (v[i] >> 5), 1u << (v[i] & 31));'''
assert s.count(old) == 1
open(p, 'w').write(s.replace(old, new))
PY
