# Session 27: probes of the TASSL solver's set-up (stderr), for one diagnostic run only.
python3 - <<'PY'
p='tasks/sptrsv/tassl.cuh'; s=open(p).read()
def after(anchor, name):
    global s
    assert anchor in s, anchor
    s = s.replace(anchor, anchor + f'\n    probe("{name}");', 1)
s = s.replace('''    const auto t0 = std::chrono::steady_clock::now();
    n_ = plan.n;''', '''    const auto t0 = std::chrono::steady_clock::now();
    auto tp = t0;
    auto probe = [&](const char* what) {
      APIARY_CUDA_CHECK(cudaDeviceSynchronize());
      const auto now = std::chrono::steady_clock::now();
      fprintf(stderr, "setup probe %-14s %8.2f ms\\n", what, std::chrono::duration<double, std::milli>(now - tp).count());
      tp = now;
    };
    n_ = plan.n;''')
after('const std::vector<SubgraphTask> tasks = subgraph_tasks(plan);', 'subgraph_tasks')
after('tasks_ = to_device(tasks);', 'tasks up')
after('diagonal_ = to_device(converted<Real>(plan.diagonal));', 'load+diag up')
after('edge_ptr_ = to_device(plan.edge_ptr);', 'edge_ptr up')
after('edges.push_back(Edge<Real>{0, 0, 0});  // the sentinel (PlanView::edges)', 'edges convert')
after('edges_ = to_device(edges);', 'edges up')
after('waiting_dev_ = to_device(waiting_);', 'deps arrays up')
after('env_.deps = deps_.data();', 'make_deps')
after('deps_rt_ = std::make_unique<Runtime<TasslDepsProgram<Real>, TasslEnv<Real>>>(ro, env_);', 'runtime')
open(p,'w').write(s)
PY
grep -q "cstdio" tasks/sptrsv/tassl.cuh || sed -i 's/#include <chrono>/#include <chrono>\n#include <cstdio>/' tasks/sptrsv/tassl.cuh
