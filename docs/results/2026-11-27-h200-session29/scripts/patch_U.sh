#!/usr/bin/env bash
# Timing prints in TasslSolver's constructor (stderr): where the set-up's time goes.
python3 - <<'PY'
p='tasks/sptrsv/tassl.cuh'
s=open(p).read()
def rep(a,b):
    global s
    assert a in s, a
    s=s.replace(a,b,1)
rep('    const auto t0 = std::chrono::steady_clock::now();\n',
    '    const auto t0 = std::chrono::steady_clock::now();\n    auto T = [&] { return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count(); };\n    double t_tasks = 0, t_up = 0, t_edges = 0, t_deps = 0, t_rt = 0;\n')
rep('    tasks_ = to_device(tasks);\n', '    tasks_ = to_device(tasks);\n    t_tasks = T();\n')
rep('    edges_ = packed_edges<Real>(plan);\n', '    t_up = T();\n    edges_ = packed_edges<Real>(plan);\n    t_edges = T();\n')
rep('      deps_rt_ = std::make_unique', '      t_deps = T();\n      deps_rt_ = std::make_unique')
rep('    setup_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();\n',
    '    setup_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();\n    t_rt = setup_ms_;\n    if (variant == Variant::tassl_deps) std::fprintf(stderr, "setup-times n %d: tasks %.3f uploads %.3f edges %.3f deps %.3f runtime %.3f\\n", n_, t_tasks, t_up, t_edges, t_deps, t_rt);\n')
if '#include <cstdio>' not in s: s=s.replace('#include <chrono>','#include <chrono>\n#include <cstdio>',1)
open(p,'w').write(s)
PY
