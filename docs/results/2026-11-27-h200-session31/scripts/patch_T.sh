#!/usr/bin/env bash
# Host timing of each RCM search run and of the pairs' preparation (stderr).
python3 - <<'PY'
p='tasks/rcm/rcm_tasks.cu'
s=open(p).read()
s=s.replace("""    if (overlap) {
      prepare_rank(cur_);
      rt_.seed<Rank>(0);
    }
    use_buffer(1 - cur_);
    rt_.seed<Narrow>(root);
    const std::array<LevelState, 2> s = run_seeded();""","""    const auto tt0 = std::chrono::steady_clock::now();
    if (overlap) {
      prepare_rank(cur_);
      rt_.seed<Rank>(0);
    }
    cudaDeviceSynchronize();
    const auto tt1 = std::chrono::steady_clock::now();
    use_buffer(1 - cur_);
    rt_.seed<Narrow>(root);
    const std::array<LevelState, 2> s = run_seeded();
    const auto tt2 = std::chrono::steady_clock::now();
    fprintf(stderr, "T bfs root %d overlap %d prepare %.3f ms run %.3f ms levels %d size %d\\n", root, (int)overlap,
            std::chrono::duration<double, std::milli>(tt1 - tt0).count(),
            std::chrono::duration<double, std::milli>(tt2 - tt1).count(), s[0].levels, s[0].end);""")
if '#include <chrono>' not in s: s = '#include <chrono>\n#include <cstdio>\n' + s
open(p,'w').write(s)
PY
grep -c "T bfs root" tasks/rcm/rcm_tasks.cu
