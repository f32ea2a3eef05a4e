#!/usr/bin/env bash
# Experiment: the Narrow BFS claims every neighbour with an exchange, without the plain-load filter.
python3 - <<'P'
p='tasks/rcm/rcm_tasks.cu'
s=open(p).read()
old='for (int i = 0; i < kPassItems; ++i) seen[i] = device_ref<unsigned>(flag[v[i]]).load(cuda::memory_order_relaxed);'
assert old in s
s=s.replace(old,'for (int i = 0; i < kPassItems; ++i) seen[i] = e.bfs ? 0u : device_ref<unsigned>(flag[v[i]]).load(cuda::memory_order_relaxed);')
open(p,'w').write(s)
P
