#!/usr/bin/env bash
# Instrumented tables (rank 0's clock per BFS level segment, printed at the end of each BFS by the Narrow task).
python3 - <<'PY'
p='tasks/rcm/rcm_tasks.cu'
s=open(p).read()
def rep(a,b):
    global s
    assert a in s, a
    s=s.replace(a,b,1)
rep("namespace apiary::rcm::detail {\n\nnamespace {\n", "namespace apiary::rcm::detail {\n\nnamespace {\n__device__ unsigned long long g_dbg[16];\n")
# segments inside expand_level (table call only: overflow != nullptr)
rep("""    find_owners(ctx, sh, w, pass_begin, pass_end);
""","""    find_owners(ctx, sh, w, pass_begin, pass_end);
    const long long ta = clock64();
""")
rep("""    index_t taken = 0;
#pragma unroll
    for (int i = 0; i < kPassItems; ++i) taken += take[i] ? 1 : 0;
""","""    index_t taken = 0;
#pragma unroll
    for (int i = 0; i < kPassItems; ++i) taken += take[i] ? 1 : 0;
    const long long tb = clock64();
    if (r == 0) { const int o = tv.next != nullptr ? 0 : 2; g_dbg[o] += tb - ta; }
""")
rep("""    ctx.sync();  // the claims are done and sh.owner is free again
    if (overflow != nullptr && *overflow != 0) return -1;""","""    ctx.sync();  // the claims are done and sh.owner is free again
    if (r == 0) { const int o = tv.next != nullptr ? 1 : 3; g_dbg[o] += clock64() - tb; }
    if (overflow != nullptr && *overflow != 0) return -1;""")
rep("""      const index_t edges = scan_level(ctx, sh, w);
      index_t count = expand_level(ctx, sh, e, begin, w, edges, tv, &lt.overflow);
      if (count < 0) {  // the tables overflowed: a wide next level
        tables = false;""","""      const long long t0 = clock64();
      const index_t edges = scan_level(ctx, sh, w);
      const long long t1 = clock64();
      index_t count = expand_level(ctx, sh, e, begin, w, edges, tv, &lt.overflow);
      if (ctx.rank() == 0) { g_dbg[4] += t1 - t0; g_dbg[5] += clock64() - t1; g_dbg[6] += 1; }
      if (count < 0) {  // the tables overflowed: a wide next level
        if (ctx.rank() == 0) g_dbg[7] += 1;
        tables = false;""")
rep("""          ctx.sync();  // before stage_level overwrites sh.vertex
          tables = true;
        }
        stage_level(ctx, sh, e, count);""","""          ctx.sync();  // before stage_level overwrites sh.vertex
          tables = true;
          if (ctx.rank() == 0) g_dbg[8] += 1;
        }
        const long long t3 = clock64();
        stage_level(ctx, sh, e, count);
        if (ctx.rank() == 0) g_dbg[9] += clock64() - t3;""")
rep("""      if (count == 0) return finish(ctx, e, begin, end, levels);""","""      if (count == 0) {
        if (ctx.rank() == 0 && e.bfs) {
          const unsigned long long* d = g_dbg;
          printf("DBG levels %llu overflows %llu fills %llu | per level cycles: scan %.0f expand %.0f stage %.0f | table claims %.0f tail %.0f | global claims %.0f tail %.0f\\n",
                 d[6], d[7], d[8], double(d[4]) / d[6], double(d[5]) / d[6], double(d[9]) / d[6], double(d[0]) / d[6],
                 double(d[1]) / d[6], double(d[2]) / d[6], double(d[3]) / d[6]);
          for (int i = 0; i < 16; ++i) g_dbg[i] = 0;
        }
        return finish(ctx, e, begin, end, levels);
      }""")
open(p,'w').write(s)
PY
