#!/usr/bin/env bash
# Experiment: L2 prefetches in the narrow BFS: the row bounds of every vertex a claim is tried on (with the exchange), and the first column line of every staged row.
python3 - <<'P'
p='tasks/rcm/rcm_tasks.cu'
s=open(p).read()
old='      if (e.bfs) old[i] = device_ref<unsigned>(e.mark[v[i]]).exchange(e.stamp, cuda::memory_order_relaxed);'
assert old in s
s=s.replace(old,'''      if (e.bfs) asm volatile("prefetch.global.L2 [%0];" ::"l"(e.row_ptr + v[i]));
'''+old)
old='''  for (int i = 0; i < kItems; ++i) {
    if (v[i] < 0) continue;
    const index_t j = r + i * kThreads;
    sh.vertex[j] = v[i];
    sh.first[j] = first[i];
    sh.offset[j] = last[i] - first[i];
  }
}'''
assert old in s
s=s.replace(old,'''  for (int i = 0; i < kItems; ++i) {
    if (v[i] < 0) continue;
    const index_t j = r + i * kThreads;
    sh.vertex[j] = v[i];
    sh.first[j] = first[i];
    sh.offset[j] = last[i] - first[i];
    if (e.bfs) asm volatile("prefetch.global.L2 [%0];" ::"l"(e.col + first[i]));
  }
}''')
open(p,'w').write(s)
P
