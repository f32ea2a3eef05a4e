# Session 36: clock64 instrumentation of the padded BFS levels and the Rank task (not committed).
import re, sys
p = 'tasks/rcm/rcm_tasks.cu'
s = open(p).read()
def rep(old, new, count=1):
    global s
    assert s.count(old) >= 1, old
    s = s.replace(old, new, count)
rep('namespace apiary::rcm::detail {\n',
    '#include <cstdio>\nnamespace apiary::rcm::detail {\n__device__ unsigned long long g_ph[16];\n'
    '__device__ __forceinline__ unsigned long long gtime() { unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }\n'
    '#define PH(i) do { if (ctx.rank() == 0) { long long _t = clock64(); g_ph[i] += _t - _last; _last = _t; } } while (0)\n')
# expand_padded: phases 1..5
rep('''                                 unsigned* visited, int parity) {
  const int r = ctx.rank();''', '''                                 unsigned* visited, int parity, long long& _last) {
  const int r = ctx.rank();''')
rep('''  ctx.sync();  // the level is staged; this level's count was cleared a level ago
  if (r == 0) sh.claimed_by_parity[1 - parity] = 0;''', '''  ctx.sync();  // the level is staged; this level's count was cleared a level ago
  PH(1);
  if (r == 0) sh.claimed_by_parity[1 - parity] = 0;''')
rep('''    for (int i = 0; i < kPassItems; ++i) v[i] = pass_begin + r + i * kThreads < slots ? v[i] : -1;
    bool take[kPassItems];
    claim_in_bitmap(visited, v, take);
    append_next(sh, e, end, &sh.claimed_by_parity[parity], take, v);
    ctx.sync();  // the claims and appends of the pass are done''', '''    for (int i = 0; i < kPassItems; ++i) v[i] = pass_begin + r + i * kThreads < slots ? v[i] : -1;
    if (r == 0 && v[0] == 0x7ffffff0) g_ph[15]++;
    PH(2);
    bool take[kPassItems];
    claim_in_bitmap(visited, v, take);
    if (r == 0 && take[0] && v[0] == 0x7ffffff0) g_ph[15]++;
    PH(3);
    append_next(sh, e, end, &sh.claimed_by_parity[parity], take, v);
    PH(4);
    ctx.sync();  // the claims and appends of the pass are done
    PH(5);''')
# Narrow loop
rep('''    unsigned* visited = nullptr;  // Bitmap, BFS: the bitmap, once it is switched on
    for (int step = 0; step < kLevelsPerTask; ++step) {''', '''    unsigned* visited = nullptr;  // Bitmap, BFS: the bitmap, once it is switched on
    long long _last = clock64();
    const unsigned long long _g0 = gtime();
    int _padded_levels = 0;
    if (ctx.rank() == 0) for (int i = 0; i < 16; ++i) g_ph[i] = 0;
    for (int step = 0; step < kLevelsPerTask; ++step) {''')
rep('''      const index_t count = padded ? expand_padded(ctx, sh, e, begin, w, visited, levels & 1)
                                   : expand_level<Bitmap>(ctx, sh, e, begin, w, scan_level(ctx, sh, w), visited);
      if (count == 0) return finish(ctx, e, begin, end, levels);''', '''      if (padded) { PH(0); ++_padded_levels; } else _last = clock64();
      const index_t count = padded ? expand_padded(ctx, sh, e, begin, w, visited, levels & 1, _last)
                                   : expand_level<Bitmap>(ctx, sh, e, begin, w, scan_level(ctx, sh, w), visited);
      if (count == 0) {
        finish(ctx, e, begin, end, levels);
        if (ctx.rank() == 0) {
          const unsigned long long g1 = gtime();
          printf("NARROW bitmap=%d bfs=%d root=%d levels=%d padded=%d ns=%llu g0=%llu g1=%llu | top %.0f sync1 %.0f loads %.0f claims %.0f append %.0f sync2 %.0f publish %.0f stage %.0f (cycles per padded level)\\n",
                 (int)Bitmap, (int)e.bfs, (int)root, (int)levels, _padded_levels, g1 - _g0, _g0, g1,
                 (double)g_ph[0] / max(1, _padded_levels), (double)g_ph[1] / max(1, _padded_levels), (double)g_ph[2] / max(1, _padded_levels),
                 (double)g_ph[3] / max(1, _padded_levels), (double)g_ph[4] / max(1, _padded_levels), (double)g_ph[5] / max(1, _padded_levels),
                 (double)g_ph[6] / max(1, _padded_levels), (double)g_ph[7] / max(1, _padded_levels));
        }
        return;
      }''')
rep('''      if (e.bfs || count > e.tile) publish_next(ctx, sh, e, end, count);
      if (Bitmap && visited != nullptr) stamp_next(ctx, sh, e, end, count);''', '''      if (e.bfs || count > e.tile) publish_next(ctx, sh, e, end, count);
      if (Bitmap && visited != nullptr) stamp_next(ctx, sh, e, end, count);
      if (padded) PH(6);''')
rep('''      if (padded) {
        stage_vertices(ctx, sh, count);''', '''      if (padded) {
        stage_vertices(ctx, sh, count);
        PH(7);''')
# Rank
rep('''    index_t k = from;
    const index_t b0 = x.level_begin[k], b1 = x.level_begin[k + 1];''', '''    index_t k = from;
    const unsigned long long _g0 = gtime();
    const index_t b0 = x.level_begin[k], b1 = x.level_begin[k + 1];''')
rep('''      if (k + 1 == x.levels) {
        if (r == 0) *x.state = LevelState{w.b0, w.b1, w.b1, k + 1, 0};''', '''      if (k + 1 == x.levels) {
        if (r == 0) printf("RANK from=%d levels=%d ns=%llu g0=%llu g1=%llu\\n", (int)from, (int)x.levels, gtime() - _g0, _g0, gtime());
        if (r == 0) *x.state = LevelState{w.b0, w.b1, w.b1, k + 1, 0};''')
open(p, 'w').write(s)
print("instrumented")
