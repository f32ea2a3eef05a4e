#!/usr/bin/env bash
# Row tasks: chunks past the stage take update_rows<1> (batches of kGatherBatch entries a lane) instead of update_rows<4>.
python3 - <<'PY'
p = 'tasks/jacobi/device.cuh'
s = open(p).read()
old = "    my_change = c.row_end - c.row_begin > kTaskThreads / c.lanes ? update_rows<4>(d, c, xo, xn, history, rank)\n"
assert old in s
s = s.replace(old, "    my_change = M == RowUpdate::interleaved && c.row_end - c.row_begin > kTaskThreads / c.lanes ? update_rows<4>(d, c, xo, xn, history, rank)\n", 1)
open(p, 'w').write(s)
PY
