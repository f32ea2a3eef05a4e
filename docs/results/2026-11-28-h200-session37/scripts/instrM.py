# Session 37: rank_levels' time and phases (rank 0), printed when the last level is ordered (not committed).
p = 'tasks/rcm/rcm_tasks.cu'
s = open(p).read()
def rep(old, new):
    global s
    assert s.count(old) == 1, old
    s = s.replace(old, new)
rep('namespace apiary::rcm::detail {\n',
    '#include <cstdio>\nnamespace apiary::rcm::detail {\n'
    '__device__ __forceinline__ unsigned long long gtime() { unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }\n')
rep('''  const int r = ctx.rank(), lane = r % 32;
''', '''  const int r = ctx.rank(), lane = r % 32;
  const unsigned long long _g0 = gtime();
  int _nf = 0, _ng = 0;
  long long _ca = 0, _cb = 0, _cc = 0, _cg = 0, _t = clock64();
''')
rep('''    if (k + 1 == x.levels) return k;
''', '''    if (k + 1 == x.levels) {
      if (r == 0) printf("RANKM from=%d levels=%d ns=%llu fast=%d general=%d | fast A %.0f B %.0f C %.0f general %.0f (cycles per level)\\n", (int)k - step, (int)x.levels, gtime() - _g0, _nf, _ng,
                         _nf ? (double)_ca / _nf : 0.0, _nf ? (double)_cb / _nf : 0.0, _nf ? (double)_cc / _nf : 0.0, _ng ? (double)_cg / _ng : 0.0);
      return k;
    }
    _t = clock64();
''')
rep('''      ctx.sync();
      if (sh.slow[k & 1] == 0) {''', '''      ctx.sync();
      { long long _u = clock64(); _ca += _u - _t; _t = _u; }
      if (sh.slow[k & 1] == 0) {''')
rep('''        if (lane == 31) sh.warp_total[r / 32] = static_cast<index_t>(inclusive);
        ctx.sync();''', '''        if (lane == 31) sh.warp_total[r / 32] = static_cast<index_t>(inclusive);
        ctx.sync();
        { long long _u = clock64(); _cb += _u - _t; _t = _u; }''')
rep('''        ordered = true;
''', '''        ordered = true;
        ++_nf;
        { long long _u = clock64(); _cc += _u - _t; _t = _u; }
''')
rep('''      if (!rank_level(ctx, sh, k, b0, b1, b2)) return -1;
''', '''      if (!rank_level(ctx, sh, k, b0, b1, b2)) return -1;
      ++_ng;
      { long long _u = clock64(); _cg += _u - _t; _t = _u; }
''')
open(p, 'w').write(s)
print("instrumented rank_levels")
