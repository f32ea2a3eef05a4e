#!/usr/bin/env bash
# Session 39: new without the claims ahead (JacobiRows<autonomous>::claim_ahead false).
python3 - <<'PY'
p = 'tasks/jacobi/tasks.cu'
s = open(p).read()
a = "static constexpr bool claim_ahead = V == Variant::autonomous;"
assert a in s
s = s.replace(a, "static constexpr bool claim_ahead = false;", 1)
open(p, 'w').write(s)
PY
