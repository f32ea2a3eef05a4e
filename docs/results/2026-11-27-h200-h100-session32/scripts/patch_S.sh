#!/usr/bin/env bash
# Diagnostic: host timing of the steps of the tasks engine's set-up (stderr, lines "S ..."),
# then a pageable and a registered (pinned) re-upload of the columns, timed apart.
python3 - <<'PY'
p='tasks/rcm/device_graph.cuh'
s=open(p).read()
s=s.replace("""struct DeviceGraph {""","""inline std::chrono::steady_clock::time_point& setup_t0() { static std::chrono::steady_clock::time_point t; return t; }
inline void setup_mark(const char* what) {
  cudaDeviceSynchronize();
  fprintf(stderr, "S %-14s %.3f ms\\n", what, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - setup_t0()).count());
}
struct DeviceGraph {""")
s=s.replace("""    setup_peak_bytes = bytes();
    if (n == 0) return;""","""    setup_peak_bytes = bytes();
    setup_mark("uploaded");
    if (n == 0) return;""")
s=s.replace("""    if (static_cast<std::size_t>(edges) == g.col.size()) return;  // no self-loops""","""    setup_mark("degrees");
    if (static_cast<std::size_t>(edges) == g.col.size()) return;  // no self-loops""")
s=s.replace("""    row_ptr = std::move(new_ptr);
    col = std::move(new_col);
  }""","""    row_ptr = std::move(new_ptr);
    col = std::move(new_col);
    setup_mark("loops dropped");
  }""")
s = '#include <chrono>\n#include <cstdio>\n' + s
open(p,'w').write(s)
p='tasks/rcm/rcm_tasks.cu'
s=open(p).read()
s=s.replace("""    mark_.fill_zero();  // stamps start at 1""","""    setup_mark("engine members");
    mark_.fill_zero();  // stamps start at 1""")
s=s.replace("""  TaskEngine e(graph, scheduler, tile, options.reuse_levels);
  r.setup_ms = ms_since(t0);""","""  setup_t0() = t0;
  TaskEngine e(graph, scheduler, tile, options.reuse_levels);
  setup_mark("engine done");
  r.setup_ms = ms_since(t0);
  {
    const std::size_t b = graph.col.size() * sizeof(index_t);
    index_t* d = nullptr;
    cudaMalloc(&d, b);
    auto t1 = std::chrono::steady_clock::now();
    cudaMemcpy(d, graph.col.data(), b, cudaMemcpyHostToDevice);
    auto t2 = std::chrono::steady_clock::now();
    cudaHostRegister(const_cast<index_t*>(graph.col.data()), b, cudaHostRegisterDefault);
    auto t3 = std::chrono::steady_clock::now();
    cudaMemcpy(d, graph.col.data(), b, cudaMemcpyHostToDevice);
    auto t4 = std::chrono::steady_clock::now();
    cudaHostUnregister(const_cast<index_t*>(graph.col.data()));
    auto t5 = std::chrono::steady_clock::now();
    cudaFree(d);
    const auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
    fprintf(stderr, "S cols %zu MB: pageable %.3f ms, register %.3f, pinned copy %.3f, unregister %.3f\\n", b >> 20,
            ms(t1, t2), ms(t2, t3), ms(t3, t4), ms(t4, t5));
  }""")
open(p,'w').write(s)
PY
grep -c "setup_mark" tasks/rcm/device_graph.cuh tasks/rcm/rcm_tasks.cu
python3 - <<'PY'
p='tasks/rcm/rcm_gpu.cu'
s=open(p).read()
s=s.replace('''  DeviceEngine e(*p.graph, options.force_two_pass_sort);''','''  detail::setup_t0() = t0;
  DeviceEngine e(*p.graph, options.force_two_pass_sort);''')
open(p,'w').write(s)
PY
grep -c "setup_t0" tasks/rcm/rcm_gpu.cu
