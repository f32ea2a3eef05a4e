#!/usr/bin/env bash
# Every candidate's slots pass may use all hardware threads (instead of cores / candidates).
python3 - <<'PY'
p='tasks/sptrsv/analysis.cpp'
s=open(p).read()
a='const auto schedule_threads = static_cast<unsigned>((cores + a.candidates.size() - 1) / a.candidates.size());'
assert a in s
s=s.replace(a,'const auto schedule_threads = cores;')
open(p,'w').write(s)
PY
