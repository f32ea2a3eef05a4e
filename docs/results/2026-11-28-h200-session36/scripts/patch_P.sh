#!/usr/bin/env bash
# Session 36 experiment P: Rank prefetches the next level's pairs, vertices and degrees into L1.
python3 - <<'PY'
p = 'tasks/rcm/rcm_tasks.cu'
s = open(p).read()
def rep(old, new):
    global s
    assert s.count(old) == 1, old
    s = s.replace(old, new)
rep('''struct LevelWindow {''', '''__device__ void prefetch_l1(const void* first, const void* last, int r) {
  const auto b = reinterpret_cast<std::uintptr_t>(last);
  for (auto q = (reinterpret_cast<std::uintptr_t>(first) & ~std::uintptr_t{127}) + std::uintptr_t(r) * 128; q < b; q += kThreads * 128)
    asm volatile("prefetch.global.L1 [%0];" ::"l"(q));
}
struct LevelWindow {''')
rep('''        atomicMin(&minrank[pair[i] & 0xffffu], static_cast<unsigned>(prev[pair[i] >> 16]));
  }
  ctx.sync();''', '''        atomicMin(&minrank[pair[i] & 0xffffu], static_cast<unsigned>(prev[pair[i] >> 16]));
  }
  prefetch_l1(x.pairs + pe, x.pairs + p2, r);
  prefetch_l1(x.queue + b2, x.queue + b3, r);
  prefetch_l1(x.degree_at + b2, x.degree_at + b3, r);
  ctx.sync();''')
open(p, 'w').write(s)
PY
