# clock64 probes in rank_level (narrow levels): cycles per step summed over levels, printed after each Rank run (stderr).
python3 - <<'PY'
p='tasks/rcm/rcm_tasks.cu'
s=open(p).read()
a=s.index("__device__ __noinline__ bool rank_level(")
b=s.index("// Item: the level whose order is known")
body=s[a:b]
marks=["  if (r == 0) sh.largest = 0;\n  ctx.sync();\n",
       "        atomicMin(&minrank[pair[i] & 0xffffu], static_cast<unsigned>(prev[pair[i] >> 16]));\n  }\n  ctx.sync();\n",
       "  for (index_t c = r; c < wn; c += kThreads) next[c] = atomicAdd(&count[minrank[c]], 1);\n  ctx.sync();\n",
       "  atomicMax(&sh.largest, most);\n  ctx.sync();\n",
       "      if (c < wn) child[count[minrank[c]] + next[c]] = make_uint2(d[i], static_cast<unsigned>(v[i]));\n    }\n  }\n  ctx.sync();\n"]
for i,m in enumerate(marks):
    assert m in body, i
    body=body.replace(m, m+f"  if (r == 0 && narrow) {{ const long long t = clock64(); atomicAdd(&g_probe[{i}], static_cast<unsigned long long>(t - t_last)); t_last = t; }}\n",1)
body=body.replace("  const bool narrow = wn <= e.tile;\n","  const bool narrow = wn <= e.tile;\n  long long t_last = clock64();\n",1)
end="    x.order[b1 + first + rank] = static_cast<index_t>(self.y);\n  }\n  ctx.sync();\n"
assert end in body
body=body.replace(end, end+"  if (r == 0 && narrow) { const long long t = clock64(); atomicAdd(&g_probe[5], static_cast<unsigned long long>(t - t_last)); atomicAdd(&g_probe[6], 1ull); }\n",1)
s=s[:a]+body+s[b:]
s=s.replace("struct RankShared {","__device__ unsigned long long g_probe[8];\nstruct RankShared {",1)
s=s.replace("""    rt_.env().rank.levels = bfs_levels_;
    return search<Rank>(0);""","""    rt_.env().rank.levels = bfs_levels_;
    unsigned long long z[8] = {};
    cudaMemcpyToSymbol(g_probe, z, sizeof z);
    LevelState st = search<Rank>(0);
    cudaMemcpyFromSymbol(z, g_probe, sizeof z);
    fprintf(stderr, "probeQ narrow levels %llu cycles/level: init %.0f pairs %.0f count %.0f scan %.0f child %.0f rank %.0f\\n", z[6],
            z[0] / double(z[6]), z[1] / double(z[6]), z[2] / double(z[6]), z[3] / double(z[6]), z[4] / double(z[6]), z[5] / double(z[6]));
    return st;""")
s='#include <cstdio>\n'+s
open(p,'w').write(s)
PY
grep -q "probeQ" tasks/rcm/rcm_tasks.cu
