# Session 37: instrR.py for patch_Q's tree: clock64 phases of Rank's levels (rank 0), printed at Rank's end (not committed).
p = 'tasks/rcm/rcm_tasks.cu'
s = open(p).read()
def rep(old, new):
    global s
    assert s.count(old) == 1, old
    s = s.replace(old, new)
rep('namespace apiary::rcm::detail {\n',
    '#include <cstdio>\nnamespace apiary::rcm::detail {\n__device__ unsigned long long g_pr[16];\n__device__ long long g_prlast;\n'
    '__device__ __forceinline__ unsigned long long gtime() { unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }\n'
    '#define PR(i) do { if (ctx.rank() == 0) { long long _t = clock64(); g_pr[i] += _t - g_prlast; g_prlast = _t; } } while (0)\n')
rep('''  for (index_t p = r; p <= wp; p += kThreads) count[p] = 0;
  if (r == 0) sh.largest = 0;
  ctx.sync();''', '''  for (index_t p = r; p <= wp; p += kThreads) count[p] = 0;
  if (r == 0) sh.largest = 0;
  ctx.sync();
  PR(0);''')
rep('''        atomicMin(&minrank[pair[i] & 0xffffu], static_cast<unsigned>(prev[pair[i] >> 16]));
  }
  ctx.sync();''', '''        atomicMin(&minrank[pair[i] & 0xffffu], static_cast<unsigned>(prev[pair[i] >> 16]));
  }
  PR(1);
  ctx.sync();
  PR(2);''')
rep('''      if (base + r + i * kThreads < wn) next[base + r + i * kThreads] = slot[i];
  }
  ctx.sync();''', '''      if (base + r + i * kThreads < wn) next[base + r + i * kThreads] = slot[i];
  }
  ctx.sync();
  PR(3);''')
rep('''  atomicMax(&sh.largest, most);
  ctx.sync();''', '''  atomicMax(&sh.largest, most);
  ctx.sync();
  PR(4);''')
if '__pipeline_wait_prior(0);  // this thread' in s:
    rep('''    order_by_counts(ctx, x, minrank, count, child, next, b1, wn, v, d);
  }
  if (stage != nullptr) __pipeline_wait_prior(0);  // this thread's copies landed; the barrier shows them to all
  ctx.sync();''', '''    order_by_counts(ctx, x, minrank, count, child, next, b1, wn, v, d);
  }
  PR(5);
  if (stage != nullptr) __pipeline_wait_prior(0);  // this thread's copies landed; the barrier shows them to all
  ctx.sync();
  PR(6);''')
else:
    rep('''    order_by_counts(ctx, x, minrank, count, child, next, b1, wn, v, d);
  }
  if (r == 0) sh.window = LevelWindow{b1, b2, b3, pe, p2};  // every thread read the window before the first barrier
  ctx.sync();''', '''    order_by_counts(ctx, x, minrank, count, child, next, b1, wn, v, d);
  }
  if (r == 0) sh.window = LevelWindow{b1, b2, b3, pe, p2};
  PR(5);
  ctx.sync();
  PR(6);''')
rep('''    ctx.sync();
    for (int step = 0; step < kLevelsPerTask; ++step) {
      if (k + 1 == sh.env.levels) {
        if (r == 0) *x.state = LevelState{sh.window.b0, sh.window.b1, sh.window.b1, k + 1, 0};''', '''    ctx.sync();
    const unsigned long long _g0 = gtime();
    if (r == 0) { for (int i = 0; i < 16; ++i) g_pr[i] = 0; g_prlast = clock64(); }
    for (int step = 0; step < kLevelsPerTask; ++step) {
      PR(7);
      if (k + 1 == sh.env.levels) {
        if (r == 0) { const double n = k - from > 0 ? k - from : 1;
          printf("RANK from=%d levels=%d ns=%llu | init %.0f pairs %.0f sync2 %.0f counts %.0f scan %.0f order %.0f sync7 %.0f top %.0f (cycles per level)\\n", (int)from, (int)x.levels, gtime() - _g0,
                 g_pr[0] / n, g_pr[1] / n, g_pr[2] / n, g_pr[3] / n, g_pr[4] / n, g_pr[5] / n, g_pr[6] / n, g_pr[7] / n); }
        if (r == 0) *x.state = LevelState{sh.window.b0, sh.window.b1, sh.window.b1, k + 1, 0};''')
open(p, 'w').write(s)
print("instrumented Rank")
