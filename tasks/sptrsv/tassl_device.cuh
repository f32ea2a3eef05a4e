// The device side of the TASSL solve that every TASSL variant shares: the plan in device
// memory and the solve of one sub-graph by one group of threads (a task of the runtime,
// or a block of the kernel-per-level variant).
#pragma once

#include <cuda_runtime.h>

#include "tasks/sptrsv/device_plan.hpp"

namespace apiary::sptrsv {

// One edge of the plan: 16 bytes in double, 12 in float (DevicePlan::edge_value is
// already divided by the target's diagonal).
template <class Real>
struct Edge {
  index_t source;  // see DevicePlan::edge_source
  index_t target;  // local index
  Real value;      // L(target, source) / L(target, target)
};

template <class Real>
struct PlanView {
  index_t n = 0;
  const SubgraphTask* tasks = nullptr;  // per sub-graph
  const index_t* load_index = nullptr;
  const Real* diagonal = nullptr;
  const index_t* edge_ptr = nullptr;
  // The plan's edges and one sentinel (source row 0, value 0) after them, so that
  // edges[t.first_edge] can be read in any sub-graph, even one without edges.
  const Edge<Real>* edges = nullptr;
};

// x values of other sub-graphs are written by other SMs during this solve: read them
// from L2 (an L1 line cached by an earlier solve on this SM would be stale).
template <class Real>
__device__ inline Real load_final(const Real* p) {
  return __ldcg(p);
}

// Warms L2 with a range the task is about to read piece by piece (its edges, slot after
// slot: without this every slot would wait for a DRAM round trip).
__device__ inline void prefetch_l2(const void* begin, std::size_t bytes, int rank, int threads) {
  const char* p = static_cast<const char*>(begin);
  for (std::size_t off = static_cast<std::size_t>(rank) * 128; off < bytes; off += static_cast<std::size_t>(threads) * 128)
    asm volatile("prefetch.global.L2 [%0];" ::"l"(p + off));
}

// Applies one edge: the target's accumulator loses value * source.
template <class Real>
__device__ inline void apply_edge(Real* local, const Edge<Real>& edge, Real source) {
  local[edge.target] -= edge.value * source;
}

// Slot bounds are staged in shared memory a window at a time, so that the loads of a
// later slot never wait for a global load of its bounds.
inline constexpr int kSlotWindow = 512;
inline constexpr int kBoundsBytes = ((kSlotWindow + 1) * static_cast<int>(sizeof(index_t)) + 15) / 16 * 16;

// Shared memory of one sub-graph task: the bounds window, then the unknowns.
template <class Real>
constexpr std::size_t subgraph_shared_bytes(index_t unknowns) {
  return kBoundsBytes + static_cast<std::size_t>(unknowns) * sizeof(Real);
}

// Loads one thread's edges of up to K external rows at once, with their sources (external
// values are final for the whole task). Loads are never guarded: a thread without an
// edge in a row reads the sub-graph's first edge (or the sentinel) instead and ignores
// it, so that no load waits for a test (a guarded load was seen to be issued only right
// before its use; a batch loaded under a test was also kept in local memory).
template <class Real, int K>
struct ExternalBatch {
  Edge<Real> edge[K];
  Real source[K];
  bool valid[K];

  // Rows s .. s + K - 1 of the external rows, none where s >= t.first_internal.
  __device__ __forceinline__ void load(const PlanView<Real>& p, const SubgraphTask& t, index_t s, int rank, const Real* xc) {
    index_t bound[K + 1];
#pragma unroll
    for (int k = 0; k <= K; ++k) bound[k] = p.edge_ptr[min(s + k, t.first_internal)];
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const index_t e = bound[k] + rank;
      valid[k] = e < bound[k + 1];
      edge[k] = p.edges[valid[k] ? e : t.first_edge];
    }
#pragma unroll
    for (int k = 0; k < K; ++k) source[k] = load_final(xc + edge[k].source);
  }

  // In row order: the edges of one target are this thread's alone (check_device_plan).
  __device__ __forceinline__ void apply(Real* local) const {
#pragma unroll
    for (int k = 0; k < K; ++k)
      if (valid[k]) apply_edge(local, edge[k], source[k]);
  }
};

// This thread's first kAhead edges of an internal slot, loaded two slots ahead: a slot
// of up to kAhead * Threads edges then waits for no global load.
inline constexpr int kAhead = 2;

template <class Real>
struct AheadEdges {
  Edge<Real> edge[kAhead];
  bool valid[kAhead];
};

// Solves sub-graph t for `rhs` right-hand sides (column c of b and x at c * n), with
// `Threads` threads of rank 0 .. Threads-1 calling it together; `sync` is their barrier
// and `shared` holds subgraph_shared_bytes<Real>(t.size) bytes, 16-byte aligned. The
// external sources must be final (the sub-graphs they belong to have finished and their
// writes are visible). Returns after a barrier that follows the last write of x.
//
// The start is what a chain of sub-graphs pays at every link, so it is three dependent
// loads deep: the task's header comes with it, and the loads of b, of the first external
// rows (edges, then sources) and of the first slot bounds are all issued before the first
// barrier. External rows need no barrier between them (one thread owns each target's
// external edges). An internal slot is a short dependent chain (bounds, edge, shared
// memory, barrier), so its global loads are taken off the critical path: the task's edges
// are prefetched into L2 at the start, slot bounds come from shared memory, and each
// thread loads its first kAhead edges of slot s + 2 while slot s runs. Further edges go in
// batches of four independent loads.
template <int Threads, class Real, class Sync>
__device__ void solve_subgraph(const PlanView<Real>& p, const SubgraphTask& t, const Real* b, Real* x, int rhs,
                               int rank, unsigned char* shared, Sync&& sync) {
  constexpr int kBatch = 4;
  index_t* bounds = reinterpret_cast<index_t*>(shared);
  Real* local = reinterpret_cast<Real*>(shared + kBoundsBytes);
  const index_t base = t.base;
  const index_t m = t.size;
  const bool external = t.first_internal > t.first_slot;
  prefetch_l2(p.edges + t.first_edge, sizeof(Edge<Real>) * (t.end_edge - t.first_edge), rank, Threads);
  auto stage_bounds = [&](index_t ws, index_t we) {
    for (index_t k = rank; k <= we - ws; k += Threads) bounds[k] = p.edge_ptr[ws + k];
  };
  for (int c = 0; c < rhs; ++c) {
    const Real* bc = b + static_cast<std::size_t>(c) * p.n;
    Real* xc = x + static_cast<std::size_t>(c) * p.n;
    ExternalBatch<Real, kBatch> first;
    first.load(p, t, t.first_slot, rank, xc);
    for (index_t l0 = rank; l0 < m; l0 += kBatch * Threads) {
      index_t idx[kBatch];
      Real v[kBatch], d[kBatch];
#pragma unroll
      for (int k = 0; k < kBatch; ++k) {
        idx[k] = p.load_index[base + min(l0 + k * Threads, m - 1)];
        d[k] = p.diagonal[base + min(l0 + k * Threads, m - 1)];
      }
#pragma unroll
      for (int k = 0; k < kBatch; ++k) v[k] = bc[idx[k]];
#pragma unroll
      for (int k = 0; k < kBatch; ++k)
        if (l0 + k * Threads < m) local[l0 + k * Threads] = v[k] / d[k];
    }
    if (t.end_slot > t.first_internal) stage_bounds(t.first_internal, min(t.first_internal + kSlotWindow, t.end_slot));
    sync();  // b loaded, the first window of slot bounds staged
    if (external) {
      first.apply(local);
      for (index_t s = t.first_slot + kBatch; s < t.first_internal; s += kBatch) {
        ExternalBatch<Real, kBatch> more;
        more.load(p, t, s, rank, xc);
        more.apply(local);
      }
      sync();  // the external updates are in before any internal slot reads them
    }
    for (index_t ws = t.first_internal; ws < t.end_slot; ws += kSlotWindow) {
      const index_t we = min(ws + kSlotWindow, t.end_slot);
      if (ws != t.first_internal) {
        stage_bounds(ws, we);
        sync();
      }
      auto fetch = [&](index_t s) {
        AheadEdges<Real> a{};
        if (s >= we) return a;
        const index_t e0 = bounds[s - ws] + rank, e_end = bounds[s - ws + 1];
#pragma unroll
        for (int k = 0; k < kAhead; ++k) {
          const index_t e = e0 + k * Threads;
          a.valid[k] = e < e_end;
          a.edge[k] = p.edges[a.valid[k] ? e : t.first_edge];
        }
        return a;
      };
      // One barrier per slot: no two edges of a slot share a target, and no source of a
      // slot is a target in it.
      auto step = [&](index_t s, const AheadEdges<Real>& ahead) {
        if (s >= we) return;  // the same for every thread of the task
#pragma unroll
        for (int k = 0; k < kAhead; ++k)
          if (ahead.valid[k]) apply_edge(local, ahead.edge[k], local[ahead.edge[k].source]);
        const index_t e_end = bounds[s - ws + 1];
        for (index_t e = bounds[s - ws] + rank + kAhead * Threads; e < e_end; e += kBatch * Threads) {
          Edge<Real> batch[kBatch];
#pragma unroll
          for (int k = 0; k < kBatch; ++k) batch[k] = p.edges[e + k * Threads < e_end ? e + k * Threads : e];
          Real source[kBatch];
#pragma unroll
          for (int k = 0; k < kBatch; ++k) source[k] = local[batch[k].source];
#pragma unroll
          for (int k = 0; k < kBatch; ++k)
            if (e + k * Threads < e_end) apply_edge(local, batch[k], source[k]);
        }
        sync();  // also: every read of this window's bounds is done before the next window
      };
      // Three rotating registers sets, unrolled by hand: a loaded value is never copied
      // (a copy would wait for the load and expose its latency in every slot).
      AheadEdges<Real> a0 = fetch(ws), a1 = fetch(ws + 1), a2;
      for (index_t s = ws; s < we; s += 3) {
        a2 = fetch(s + 2);
        step(s, a0);
        a0 = fetch(s + 3);
        step(s + 1, a1);
        a1 = fetch(s + 4);
        step(s + 2, a2);
      }
    }
    // The same thread wrote local[l] last for the next column's load: no barrier needed.
    for (index_t l = rank; l < m; l += Threads) xc[p.load_index[base + l]] = local[l];
  }
  sync();
}

}  // namespace apiary::sptrsv
