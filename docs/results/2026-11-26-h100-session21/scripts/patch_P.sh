# Probes: host-side timing of the pieces of setup and of the Cuthill–McKee step (stderr).
python3 - <<'PY'
import re
p='tasks/rcm/rcm_tasks.cu'
s=open(p).read()
s=s.replace("""    if (reuse_levels_ && root == bfs_root_) {
      s = order_levels();""","""    if (reuse_levels_ && root == bfs_root_) {
      auto q0 = std::chrono::steady_clock::now();
      s = order_levels();
      fprintf(stderr, "probe cm_levels_total %.3f ms\\n", std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - q0).count());""")
s=s.replace("""    build_level_pairs(a, scan_.data(), scan_.bytes());
    rt_.env().rank.levels = bfs_levels_;""","""    auto q0 = std::chrono::steady_clock::now();
    build_level_pairs(a, scan_.data(), scan_.bytes());
    cudaDeviceSynchronize();
    fprintf(stderr, "probe pairs %.3f ms levels %d\\n", std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - q0).count(), bfs_levels_);
    rt_.env().rank.levels = bfs_levels_;""")
s=s.replace("""    const std::size_t first = order.size();
    order.resize(first + static_cast<std::size_t>(s.end));
    APIARY_CUDA_CHECK(cudaMemcpy(order.data() + first, from,""","""    auto q1 = std::chrono::steady_clock::now();
    const std::size_t first = order.size();
    order.resize(first + static_cast<std::size_t>(s.end));
    struct P { std::chrono::steady_clock::time_point t; ~P() { fprintf(stderr, "probe copy %.3f ms\\n", std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count()); } } probe{q1};
    APIARY_CUDA_CHECK(cudaMemcpy(order.data() + first, from,""")
s=s.replace("""  TaskEngine e(graph, scheduler, tile, options.reuse_levels);""","""  TaskEngine e(graph, scheduler, tile, options.reuse_levels);
  fprintf(stderr, "probe engine setup %.3f ms\\n", ms_since(t0));""")
s='#include <cstdio>\n'+s
open(p,'w').write(s)
p='tasks/rcm/device_graph.cuh'
s=open(p).read()
s=s.replace("""        degree(static_cast<std::size_t>(g.rows)) {""","""        degree(static_cast<std::size_t>(g.rows)) {
    cudaDeviceSynchronize();
    auto q0 = std::chrono::steady_clock::now();""")
s=s.replace("""    for (index_t d : host_degree) max_degree = std::max(max_degree, d);""","""    for (index_t d : host_degree) max_degree = std::max(max_degree, d);
    fprintf(stderr, "probe degrees+download %.3f ms\\n", std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - q0).count());""")
s='#include <chrono>\n#include <cstdio>\n'+s
open(p,'w').write(s)
p='tasks/rcm/rcm_driver.hpp'
s=open(p).read()
s=s.replace("""    for (std::size_t i = first; i < order.size(); ++i) visited[order[i]] = 1;""","""    const auto qv = clock::now();
    for (std::size_t i = first; i < order.size(); ++i) visited[order[i]] = 1;
    fprintf(stderr, "probe visited %.3f ms\\n", detail::ms_since(qv));""")
s=s.replace("""  r.perm.assign(order.rbegin(), order.rend());
  r.permutation_ms += detail::ms_since(t0);""","""  r.perm.assign(order.rbegin(), order.rend());
  r.permutation_ms += detail::ms_since(t0);
  fprintf(stderr, "probe reverse %.3f ms\\n", detail::ms_since(t0));""")
s='#include <cstdio>\n'+s
open(p,'w').write(s)
PY
grep -q "probe visited" tasks/rcm/rcm_driver.hpp && grep -q "probe pairs" tasks/rcm/rcm_tasks.cu
