# Probes (stderr): set-up pieces and the Cuthill–McKee pieces of the tasks engine.
python3 - <<'PY'
p='tasks/rcm/device_graph.cuh'
s=open(p).read()
s=s.replace("""        degree(static_cast<std::size_t>(g.rows)) {
    constexpr int threads = 256;""","""        degree(static_cast<std::size_t>(g.rows)) {
    cudaDeviceSynchronize();
    fprintf(stderr, "probeS graph upload done %.3f ms since engine start\\n", std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - g_probe_t0).count());
    constexpr int threads = 256;""")
s=s.replace("""    max_degree = std::max<index_t>(0, largest.to_host()[0]);""","""    max_degree = std::max<index_t>(0, largest.to_host()[0]);
    fprintf(stderr, "probeS degrees done %.3f ms\\n", std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - g_probe_t0).count());""")
s=s.replace("namespace apiary::rcm::detail {","namespace apiary::rcm::detail {\ninline std::chrono::steady_clock::time_point g_probe_t0;",1)
s='#include <chrono>\n#include <cstdio>\n'+s
open(p,'w').write(s)
p='tasks/rcm/rcm_tasks.cu'
s=open(p).read()
s=s.replace("""  const auto t0 = std::chrono::steady_clock::now();
  TaskEngine e(graph, scheduler, tile, options.reuse_levels);""","""  const auto t0 = std::chrono::steady_clock::now();
  g_probe_t0 = t0;
  TaskEngine e(graph, scheduler, tile, options.reuse_levels);
  fprintf(stderr, "probeS engine done %.3f ms\\n", ms_since(t0));""")
s=s.replace("""    build_level_pairs(a, scan_.data(), scan_.bytes());
    rt_.env().rank.levels = bfs_levels_;""","""    auto q0 = std::chrono::steady_clock::now();
    build_level_pairs(a, scan_.data(), scan_.bytes());
    cudaDeviceSynchronize();
    fprintf(stderr, "probeS pairs %.3f ms\\n", ms_since(q0));
    rt_.env().rank.levels = bfs_levels_;""")
s=s.replace("""    bfs_root_ = -1;  // the claims search overwrites the BFS order in the queue""","""    bfs_root_ = -1;  // the claims search overwrites the BFS order in the queue
    auto q1 = std::chrono::steady_clock::now();
    struct P { std::chrono::steady_clock::time_point t; ~P() { fprintf(stderr, "probeS reversed copy %.3f ms\\n", ms_since(t)); } } probe{q1};""")
s='#include <cstdio>\n'+s
open(p,'w').write(s)
PY
grep -q "probeS pairs" tasks/rcm/rcm_tasks.cu && grep -q "probeS degrees" tasks/rcm/device_graph.cuh
