// The device side shared by every variant: the data of one solve, the update of one
// chunk of rows, and the reduction + stopping decision of one iteration. The kernel
// baselines call these from a 256-thread block, the task programs from a 256-thread
// task, with the same arithmetic, so all variants compute the same iterates bit for bit
// (and problem.hpp's host model predicts them).
//
// Arithmetic: products and sums use __dmul_rn / __dadd_rn, which the compiler never
// fuses into FMAs, so the association order written here is the rounding order.
//
// Memory ordering: x, the per-chunk changes and the piece sums are written by one task
// (block) and read by others. Every such hand-over goes through a release by the writer
// (after a barrier over its threads) and an acquire by the reader: a kernel boundary, a
// phase switch, a dependency, or the acq_rel counters below. The reads of values that
// other tasks wrote in this run use plain loads (x: they hit L1 after the acquire
// invalidated it) or __ldcg (scalars); only data constant for the whole run is read with
// __ldg.
#pragma once

#include <cuda_runtime.h>
#if defined(__CUDACC__)
#include <cuda_pipeline.h>
#endif

#include <cstdint>

#include "runtime/portable.hpp"
#include "tasks/jacobi/partition.hpp"

namespace apiary::jacobi {

// The outcome, written by whoever decides to stop (a check task, the last row task of
// an iteration, the reduction kernel).
struct JacobiState {
  int iterations = 0;
  int converged = 0;
  int stop = 0;  // set (release) once the decision to stop is made
  int reserved = 0;
  double last_change = 0;
};

// Everything a task or kernel needs, by value (trivially copyable, part of the Env).
struct DeviceData {
  int n = 0;
  int chunk_count = 0;
  int max_iterations = 0;
  double tolerance = 0;
  const index_t* row_ptr = nullptr;  // A without its diagonal
  const index_t* col = nullptr;
  const double* val = nullptr;
  const double* inv_diag = nullptr;
  const double* b = nullptr;
  const Chunk* chunks = nullptr;
  double* x = nullptr;          // x_ring x n: x(k) at row k % x_ring
  int x_ring = 2;               // max(2, checkpoint interval)
  int partial_ring = 2;         // 2 (by parity), or the checkpoint interval
  double* partial = nullptr;    // partial_ring x chunk_count: per-chunk change of iteration k at row k % partial_ring
  double* piece_sum = nullptr;  // chunk_count: a piece's share of its row's sum
  unsigned* piece_arrivals = nullptr;  // chunk_count: pieces of a row done this iteration (at its first piece)
  double* changes = nullptr;           // max_iterations: ||x(k+1) - x(k)||_1
  double* history = nullptr;           // null, or max_iterations x n: x(k+1) at row k
  JacobiState* state = nullptr;
};

// Per task (or block) scratch: the warp sums of a reduction and a few broadcast words.
struct Scratch {
  double warp[kTaskThreads / 32];
  int flag[4];
  unsigned long long record;  // autonomous: the decider's reserved positions (tasks.cu)
};

// The staged update of a chunk (update_rows_staged): every product a_ij x_j of the
// chunk in shared memory, with the rows' pointers and own operands. A chunk of whole
// rows fits when it has at most kTaskThreads rows and kStageEntries entries. Its threads
// load kGatherBatch entries each at once (8 took the autonomous megakernel from 80 to 88
// registers: 2 blocks of 256 threads per SM instead of 3).
inline constexpr int kStageEntries = 4096;
struct Stage {
  alignas(16) double prod[kStageEntries];  // in CSR order from the chunk's first entry
  double b[kTaskThreads], inv[kTaskThreads], old[kTaskThreads];
  index_t row_ptr[kTaskThreads + 1];  // the rows' pointers (and nz_end)
};
struct StagedScratch {
  Scratch scratch;
  Stage stage;
};
APIARY_HD inline bool fits_stage(const Chunk& c) {
  return c.lanes > 0 && c.row_end - c.row_begin <= kTaskThreads && c.nz_end - c.nz_begin <= kStageEntries;
}

// How a chunk of whole rows is updated: `plain` (update_rows<1>), `interleaved` (several
// passes at once where the chunk needs them, update_rows<4>), `staged` (through shared
// memory where the chunk fits, else interleaved). All three add the same products in
// the same order.
enum class RowUpdate { plain, interleaved, staged };

// Where x(k) and the per-chunk changes of iteration k live.
APIARY_HD inline double* x_at(const DeviceData& d, int k) {
  return d.x + static_cast<std::size_t>(k % d.x_ring) * static_cast<std::size_t>(d.n);
}
APIARY_HD inline double* partial_at(const DeviceData& d, int k) {
  return d.partial + static_cast<std::size_t>(k % d.partial_ring) * static_cast<std::size_t>(d.chunk_count);
}

#if defined(__CUDACC__)

// Sum of v over the kTaskThreads threads; the result is valid in rank 0. Fixed order:
// a butterfly per warp, then the warps in order. Every thread must call it. Without
// `reuse_barrier`, the caller passes a barrier of its own before s->warp is written again.
template <class Sync>
__device__ double block_sum(double v, int rank, Scratch* s, Sync&& sync, bool reuse_barrier = true) {
  for (int off = 16; off > 0; off >>= 1) v = __dadd_rn(v, __shfl_xor_sync(0xffffffffu, v, off));
  if ((rank & 31) == 0) s->warp[rank >> 5] = v;
  sync();
  double total = 0;
  if (rank == 0) {
    total = s->warp[0];
    for (int w = 1; w < kTaskThreads / 32; ++w) total = __dadd_rn(total, s->warp[w]);
  }
  if (reuse_barrier) sync();  // s->warp may be reused by the next call
  return total;
}

// The values a_e and the x(col e) of the kGatherBatch entries e = first + j * stride,
// j = 0, 1, ... (0 for those at or past `end`, which the caller skips): every column and
// value is loaded, then every x, so that the batch costs one dependent pair of loads
// rather than one per entry. update_rows<1> and update_rows_staged use it.
inline constexpr int kGatherBatch = 4;
__device__ inline void gather_batch(const DeviceData& d, const double* __restrict__ xo, int first, int stride, int end,
                                    double (&val)[kGatherBatch], double (&x)[kGatherBatch]) {
  index_t cj[kGatherBatch];
#pragma unroll
  for (int j = 0; j < kGatherBatch; ++j) {
    const int e = first + j * stride;
    cj[j] = e < end ? __ldg(d.col + e) : -1;
    val[j] = e < end ? __ldg(d.val + e) : 0.0;
  }
#pragma unroll
  for (int j = 0; j < kGatherBatch; ++j) x[j] = cj[j] >= 0 ? xo[cj[j]] : 0.0;
}

// x(k+1) for the whole rows of chunk c, `lanes` threads per row (a power of two up to 32,
// so a row's lanes sit in one warp); returns this thread's share of the change (only a
// row's lane 0 has one). Every thread runs the same number of passes: the butterfly needs
// all lanes. `Passes` passes run interleaved, each with its own accumulator, so that a
// thread has that many independent chains of loads in flight (row pointer, column, x).
// A chunk of many rows is one task on one block in the task programs, where its passes
// one after the other were bound by memory latency: 4 at once took autonomous from 32.2
// to 28.6 us per iteration at 10^6 non-zeros with budget 4096, and from 231 to 217 us at
// 10^7 (H100, session 9). The kernel baselines keep 1: there the accumulators cost
// registers (38 -> 44, 6 resident blocks of 256 threads per SM -> 5), and their time at
// budget 512 and 10^7 rose from 159 to 185 us. Each row's entries are added in the same
// order either way, so the iterates do not change.
template <int Passes>
__device__ double update_rows(const DeviceData& d, const Chunk& c, const double* __restrict__ xo,
                              double* __restrict__ xn, double* history, int rank) {
  const int lanes = c.lanes;
  const int groups = kTaskThreads / lanes;
  const int group = rank / lanes;
  const int lane = rank % lanes;
  double my_change = 0;
  for (int base = c.row_begin; base < c.row_end; base += Passes * groups) {
    double acc[Passes];
    int q[Passes], end[Passes];
    // One pass: the row's own operands are loaded with its row pointers, not after its
    // sum, so that they are not one more memory round trip on the path of a small
    // chunk, whose task is latency-bound (several passes keep their registers for the
    // accumulators instead).
    double own_b = 0, own_inv = 0, own_old = 0;
#pragma unroll
    for (int u = 0; u < Passes; ++u) {
      const int row = base + u * groups + group;
      const bool active = row < c.row_end;
      acc[u] = 0;
      q[u] = active ? __ldg(d.row_ptr + row) + lane : 0;
      end[u] = active ? __ldg(d.row_ptr + row + 1) : 0;
      if (Passes == 1 && active && lane == 0) {
        own_b = __ldg(d.b + row);
        own_inv = __ldg(d.inv_diag + row);
        own_old = xo[row];
      }
    }
    if constexpr (Passes == 1) {
      // Each trip of a plain loop over the row would be a dependent pair of loads
      // (column, then x) on the path of a latency-bound task. kGatherBatch entries per
      // lane at once: their columns and values, then their x, then the additions in
      // entry order; a row of up to kGatherBatch * lanes entries costs one pair.
      for (int p = q[0]; p < end[0]; p += kGatherBatch * lanes) {
        double vj[kGatherBatch], xj[kGatherBatch];
        gather_batch(d, xo, p, lanes, end[0], vj, xj);
#pragma unroll
        for (int j = 0; j < kGatherBatch; ++j)
          if (p + j * lanes < end[0]) acc[0] = __dadd_rn(acc[0], __dmul_rn(vj[j], xj[j]));
      }
    } else {
      for (bool more = true; more;) {
        more = false;
#pragma unroll
        for (int u = 0; u < Passes; ++u) {
          if (q[u] < end[u]) {
            acc[u] = __dadd_rn(acc[u], __dmul_rn(__ldg(d.val + q[u]), xo[__ldg(d.col + q[u])]));
            q[u] += lanes;
            more = true;
          }
        }
      }
    }
#pragma unroll
    for (int u = 0; u < Passes; ++u) {
      if (base + u * groups >= c.row_end) break;  // the same for every thread of the task
      const int row = base + u * groups + group;
      double sum = acc[u];
      for (int off = lanes >> 1; off > 0; off >>= 1) sum = __dadd_rn(sum, __shfl_xor_sync(0xffffffffu, sum, off));
      if (row < c.row_end && lane == 0) {
        if (Passes > 1) {
          own_b = __ldg(d.b + row);
          own_inv = __ldg(d.inv_diag + row);
          own_old = xo[row];
        }
        const double x = __dmul_rn(__dsub_rn(own_b, sum), own_inv);
        xn[row] = x;
        if (history) history[row] = x;
        my_change = __dadd_rn(my_change, fabs(__dsub_rn(x, own_old)));
      }
    }
  }
  return my_change;
}

// x(k+1) for the whole rows of chunk c (fits_stage(c)), the same arithmetic as
// update_rows in fewer dependent round trips: the row pointers, the rows' own operands
// and the first kGatherBatch entries per thread are loaded at once (the entries are
// [nz_begin, nz_end), contiguous, so consecutive threads load consecutive entries), then
// the x they gather; every product goes to shared memory, and after one barrier each
// row's `lanes` threads add its products in update_rows' order (lane l: entries
// l, l + lanes, ...; then the butterfly) from there. update_rows goes row pointer, then
// column, then x for every kGatherBatch * lanes entries of a row, per pass.
template <class Sync>
__device__ double update_rows_staged(const DeviceData& d, const Chunk& c, const double* __restrict__ xo,
                                     double* __restrict__ xn, double* history, int rank, Stage* st, Sync&& sync) {
  const int rows = c.row_end - c.row_begin;
  const int e0 = c.nz_begin;
  const int n = c.nz_end - e0;
  // The rows' pointers and own operands go straight to shared memory (cp.async: no
  // registers held across the gathers below, which keeps the megakernel at 3 blocks of
  // 256 threads per SM). x(k) through L1 like the gathers: the task's acquire
  // invalidated it.
  if (rank < rows) {
    const int row = c.row_begin + rank;
    __pipeline_memcpy_async(&st->row_ptr[rank], d.row_ptr + row, sizeof(index_t));
    __pipeline_memcpy_async(&st->b[rank], d.b + row, sizeof(double));
    __pipeline_memcpy_async(&st->inv[rank], d.inv_diag + row, sizeof(double));
    __pipeline_memcpy_async(&st->old[rank], xo + row, sizeof(double));
  }
  __pipeline_commit();
  for (int base = 0; base < n; base += kGatherBatch * kTaskThreads) {
    double vj[kGatherBatch], xj[kGatherBatch];
    gather_batch(d, xo, e0 + base + rank, kTaskThreads, e0 + n, vj, xj);
#pragma unroll
    for (int j = 0; j < kGatherBatch; ++j) {
      const int e = base + j * kTaskThreads + rank;
      if (e < n) st->prod[e] = __dmul_rn(vj[j], xj[j]);
    }
  }
  if (rank == 0) st->row_ptr[rows] = e0 + n;
  __pipeline_wait_prior(0);
  sync();

  const int lanes = c.lanes;
  const int groups = kTaskThreads / lanes;
  const int group = rank / lanes;
  const int lane = rank % lanes;
  double my_change = 0;
  for (int r0 = 0; r0 < rows; r0 += groups) {  // the same trips for every thread: the butterfly needs all lanes
    const int r = r0 + group;
    double sum = 0;
    if (r < rows)
      for (int q = st->row_ptr[r] - e0 + lane; q < st->row_ptr[r + 1] - e0; q += lanes)
        sum = __dadd_rn(sum, st->prod[q]);
    for (int off = lanes >> 1; off > 0; off >>= 1) sum = __dadd_rn(sum, __shfl_xor_sync(0xffffffffu, sum, off));
    if (r < rows && lane == 0) {
      const double x = __dmul_rn(__dsub_rn(st->b[r], sum), st->inv[r]);
      xn[c.row_begin + r] = x;
      if (history) history[c.row_begin + r] = x;
      my_change = __dadd_rn(my_change, fabs(__dsub_rn(x, st->old[r])));
    }
  }
  return my_change;
}

// x(k+1) for the rows of chunk t, and the chunk's share of ||x(k+1) - x(k)||_1 in
// partial_at(k)[t]. Called by all kTaskThreads threads of a task or block; `sync` is a
// barrier over exactly those threads. On return, rank 0 has written the partial, and
// every thread its x values (call sync before handing them over). Returns, in rank 0,
// whether the chunk's rows are complete: always for whole rows, and for a piece when it
// was the last of its row and so wrote x_i. M: how whole rows are updated (RowUpdate;
// `stage` is used by `staged` only). `c` is d.chunks[t] (its piece_count unused), held
// by the caller (a row task's item carries it); the overload below loads it.
// `reuse_barrier`: block_sum's, after the chunk's share of the change.
template <RowUpdate M, class Sync>
__device__ bool update_chunk(const DeviceData& d, const Chunk& c, int t, int k, int rank, Scratch* s, Stage* stage,
                             Sync&& sync, bool reuse_barrier = true) {
  const double* __restrict__ xo = x_at(d, k);
  double* __restrict__ xn = x_at(d, k + 1);
  double* partial = partial_at(d, k);
  double* history =
      d.history == nullptr ? nullptr : d.history + static_cast<std::size_t>(k) * static_cast<std::size_t>(d.n);

  if (c.lanes == 0) {
    // One long row, or one piece of a split row: every thread strides over it. A
    // piece's count comes from the table (a row task's item has no room for it), loaded
    // before the row's entries.
    const int pieces = c.first_piece >= 0 ? __ldg(&d.chunks[t].piece_count) : 0;
    double acc = 0;
    for (int q = c.nz_begin + rank; q < c.nz_end; q += kTaskThreads)
      acc = __dadd_rn(acc, __dmul_rn(__ldg(d.val + q), xo[__ldg(d.col + q)]));
    const double sum = block_sum(acc, rank, s, sync);
    if (rank != 0) return false;
    const int row = c.row_begin;
    if (c.first_piece < 0) {
      const double x = __dmul_rn(__dsub_rn(__ldg(d.b + row), sum), __ldg(d.inv_diag + row));
      xn[row] = x;
      if (history) history[row] = x;
      partial[t] = fabs(__dsub_rn(x, xo[row]));
      return true;
    }
    // A piece: publish its sum; the last piece of the row to arrive combines them in
    // piece order (deterministic whoever is last) and writes the row's change into the
    // slot of the first piece. Every piece zeroes its own slot before arriving, so the
    // combiner's write comes after all of them.
    d.piece_sum[t] = sum;
    partial[t] = 0;
    atomic_ref<unsigned> arrivals(d.piece_arrivals[c.first_piece]);
    const unsigned before = arrivals.fetch_add(1u, cuda::std::memory_order_acq_rel);
    if (before + 1 != static_cast<unsigned>(pieces)) return false;
    // Next iteration's pieces arrive only after this iteration ended, which is ordered
    // after this task: a relaxed reset is enough.
    arrivals.store(0u, cuda::std::memory_order_relaxed);
    double total = __ldcg(d.piece_sum + c.first_piece);
    for (int p = 1; p < pieces; ++p) total = __dadd_rn(total, __ldcg(d.piece_sum + c.first_piece + p));
    const double x = __dmul_rn(__dsub_rn(__ldg(d.b + row), total), __ldg(d.inv_diag + row));
    xn[row] = x;
    if (history) history[row] = x;
    partial[c.first_piece] = fabs(__dsub_rn(x, xo[row]));
    return true;
  }

  // Whole rows.
  double my_change;
  if (M == RowUpdate::staged && fits_stage(c)) {
    my_change = update_rows_staged(d, c, xo, xn, history, rank, stage, sync);
  } else if (M != RowUpdate::plain) {
    my_change = c.row_end - c.row_begin > kTaskThreads / c.lanes ? update_rows<4>(d, c, xo, xn, history, rank)
                                                                 : update_rows<1>(d, c, xo, xn, history, rank);
  } else {
    my_change = update_rows<1>(d, c, xo, xn, history, rank);
  }
  const double change = block_sum(my_change, rank, s, sync, reuse_barrier);
  if (rank == 0) partial[t] = change;
  return true;
}

template <RowUpdate M, class Sync>
__device__ bool update_chunk(const DeviceData& d, int t, int k, int rank, Scratch* s, Stage* stage, Sync&& sync) {
  const Chunk c = d.chunks[t];
  return update_chunk<M>(d, c, t, k, rank, s, stage, sync);
}

// ||x(k+1) - x(k)||_1 from the per-chunk partials of iteration k (valid in rank 0).
// Every thread must call it.
template <class Sync>
__device__ double reduce_change(const DeviceData& d, int k, int rank, Scratch* s, Sync&& sync) {
  const double* partial = partial_at(d, k);
  double acc = 0;
  for (int t = rank; t < d.chunk_count; t += kTaskThreads) acc = __dadd_rn(acc, __ldcg(partial + t));
  return block_sum(acc, rank, s, sync);
}

// Rank 0: records the change of iteration k and, when it means stopping (below the
// tolerance, or k was the last allowed iteration), the outcome in *state, the stop flag
// last (release). Returns whether to stop.
__device__ inline bool record_change(const DeviceData& d, int k, double change) {
  const bool converged = change < d.tolerance;
  const bool stop = converged || k + 1 >= d.max_iterations;
  d.changes[k] = change;
  if (stop) {
    d.state->iterations = k + 1;
    d.state->converged = converged ? 1 : 0;
    d.state->last_change = change;
    atomic_ref<int>(d.state->stop).store(1, cuda::std::memory_order_release);
  }
  return stop;
}

// The change of iteration k and the decision (see record_change). Called by all
// kTaskThreads threads; returns the decision in every thread.
template <class Sync>
__device__ bool reduce_and_decide(const DeviceData& d, int k, int rank, Scratch* s, Sync&& sync) {
  const double change = reduce_change(d, k, rank, s, sync);
  if (rank == 0) s->flag[1] = record_change(d, k, change) ? 1 : 0;
  sync();
  return s->flag[1] != 0;
}

// True once some decider set the stop flag (rank 0 reads, everyone gets the answer).
template <class Sync>
__device__ bool stop_requested(const DeviceData& d, int rank, Scratch* s, Sync&& sync) {
  if (rank == 0) s->flag[2] = atomic_ref<int>(d.state->stop).load(cuda::std::memory_order_acquire);
  sync();
  const bool stop = s->flag[2] != 0;
  sync();  // flag[2] may be rewritten by a later call
  return stop;
}

#endif  // __CUDACC__

}  // namespace apiary::jacobi
