#!/usr/bin/env bash
# patch_D plus the table block split: column loads, lookups, inserts (rank 0's clock).
bash $1/.run/patch_D.sh $1
python3 - <<'PY'
p='tasks/rcm/rcm_tasks.cu'
s=open(p).read()
def rep(a,b):
    global s
    assert a in s, a
    s=s.replace(a,b,1)
rep("""    if (tv.next != nullptr) {
      bool full = false;
#pragma unroll
      for (int i = 0; i < kPassItems; ++i) {
        take[i] = false;
        if (at[i] < 0 || table_has(tv.prev, v[i]) || table_has(tv.cur, v[i])) continue;
        const int inserted = table_insert(tv.next, v[i]);
        take[i] = inserted > 0;
        full = full || inserted < 0;
      }
      if (full) *overflow = 1;""","""    if (tv.next != nullptr) {
      bool full = false;
      int sink = 0;
#pragma unroll
      for (int i = 0; i < kPassItems; ++i) sink += v[i];
      asm volatile("" :: "r"(sink) : "memory");
      const long long u0 = clock64();
      bool known[kPassItems];
#pragma unroll
      for (int i = 0; i < kPassItems; ++i) known[i] = at[i] < 0 || table_has(tv.prev, v[i]) || table_has(tv.cur, v[i]);
      int ks = 0;
#pragma unroll
      for (int i = 0; i < kPassItems; ++i) ks += known[i];
      asm volatile("" :: "r"(ks) : "memory");
      const long long u1 = clock64();
#pragma unroll
      for (int i = 0; i < kPassItems; ++i) {
        take[i] = false;
        if (known[i]) continue;
        const int inserted = table_insert(tv.next, v[i]);
        take[i] = inserted > 0;
        full = full || inserted < 0;
      }
      int ts = 0;
#pragma unroll
      for (int i = 0; i < kPassItems; ++i) ts += take[i];
      asm volatile("" :: "r"(ts) : "memory");
      const long long u2 = clock64();
      if (r == 0) { g_dbg[10] += u0 - ta; g_dbg[11] += u1 - u0; g_dbg[12] += u2 - u1; }
      if (full) *overflow = 1;""")
rep("""          for (int i = 0; i < 16; ++i) g_dbg[i] = 0;""","""          printf("DBG split: loads %.0f lookups %.0f inserts %.0f\\n", double(d[10]) / d[6], double(d[11]) / d[6], double(d[12]) / d[6]);
          for (int i = 0; i < 16; ++i) g_dbg[i] = 0;""")
open(p,'w').write(s)
PY
