#!/usr/bin/env bash
# Session 39 experiment: the autonomous row task arrives without block_sum's trailing barrier and without the
# ctx.sync() before the arrival (block_sum's first barrier already follows every thread's x(k+1) writes).
python3 - <<'PY'
def edit(p, pairs):
    s = open(p).read()
    for a, b in pairs:
        assert a in s, (p, a[:70])
        s = s.replace(a, b, 1)
    open(p, 'w').write(s)
edit('tasks/jacobi/device.cuh', [
("""template <class Sync>
__device__ double block_sum(double v, int rank, Scratch* s, Sync&& sync) {""",
"""template <class Sync>
__device__ double block_sum(double v, int rank, Scratch* s, Sync&& sync, bool reuse_barrier = true) {"""),
("""  sync();  // s->warp may be reused by the next call
  return total;""",
"""  if (reuse_barrier) sync();  // s->warp may be reused by the next call
  return total;"""),
("""__device__ bool update_chunk(const DeviceData& d, const Chunk& c, int t, int k, int rank, Scratch* s, Stage* stage,
                             bool constants_staged, Sync&& sync) {""",
"""__device__ bool update_chunk(const DeviceData& d, const Chunk& c, int t, int k, int rank, Scratch* s, Stage* stage,
                             bool constants_staged, Sync&& sync, bool reuse_barrier = true) {"""),
("""  const double change = block_sum(my_change, rank, s, sync);
  if (rank == 0) partial[t] = change;
  return true;""",
"""  const double change = block_sum(my_change, rank, s, sync, reuse_barrier);
  if (rank == 0) partial[t] = change;
  return true;"""),
])
edit('tasks/jacobi/tasks.cu', [
("""      update_chunk<kRows>(d, item.chunk(), t, k, rank, s, stage, constants_staged, sync);""",
"""      update_chunk<kRows>(d, item.chunk(), t, k, rank, s, stage, constants_staged, sync, false);"""),
("""      __pipeline_commit();
      ctx.sync();  // every x(k+1) of this chunk is written before rank 0 arrives""",
"""      __pipeline_commit();"""),
])
PY
