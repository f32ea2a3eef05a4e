// The device side of the TASSL solve that every TASSL variant shares: the plan in device
// memory and the solve of one sub-graph by one group of threads (a task of the runtime,
// or a block of the kernel-per-level variant).
#pragma once

#include <cuda_runtime.h>

#include "tasks/sptrsv/device_plan.hpp"

namespace apiary::sptrsv {

// One edge of the schedule. The target's diagonal travels with its last edge, so the
// division needs no dependent load (one 24-byte record in double, 16 in float).
template <class Real>
struct Edge {
  index_t source;  // see DevicePlan::edge_source
  index_t target;  // local index | kLastEdge
  Real value;
  Real diagonal;   // L(target, target) on the target's last edge, else unused
};

template <class Real>
struct PlanView {
  index_t n = 0;
  const index_t* part_ptr = nullptr;
  const index_t* load_index = nullptr;
  const Real* diagonal = nullptr;
  const index_t* slot_ptr = nullptr;
  const index_t* external_slots = nullptr;
  const index_t* edge_ptr = nullptr;
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

// Applies one edge: the target's accumulator loses value * source, and the thread of the
// target's last edge divides by the diagonal.
template <class Real>
__device__ inline void apply_edge(Real* local, const Edge<Real>& edge, Real source) {
  const index_t t = edge.target & kIndexMask;
  Real v = local[t] - edge.value * source;
  if (edge.target & kLastEdge) v /= edge.diagonal;
  local[t] = v;
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

// This thread's first edge of a slot, loaded two slots ahead (with its source when the
// slot is external: external values are final for the whole task).
template <class Real>
struct AheadEdge {
  Edge<Real> edge;
  Real source;
  bool valid;
};

// Solves sub-graph g for `rhs` right-hand sides (column c of b and x at c * n), with
// `Threads` threads of rank 0 .. Threads-1 calling it together; `sync` is their barrier
// and `shared` holds subgraph_shared_bytes<Real>(part_ptr[g+1] - part_ptr[g]) bytes,
// 16-byte aligned. The external sources must be final (the sub-graphs they belong to
// have finished and their writes are visible). Returns after a barrier that follows the
// last write of x.
//
// A slot is a short dependent chain (bounds, edge, source, shared memory, barrier), so
// its global loads are taken off the critical path: the task's edges are prefetched into
// L2 at the start, slot bounds come from shared memory, and each thread loads its first
// edge of slot s + 2 (and its source, when external) while slot s runs. Edges beyond the
// first per thread go in batches of four independent loads.
template <int Threads, class Real, class Sync>
__device__ void solve_subgraph(const PlanView<Real>& p, index_t g, const Real* b, Real* x, int rhs, int rank,
                               unsigned char* shared, Sync&& sync) {
  constexpr int kBatch = 4;
  index_t* bounds = reinterpret_cast<index_t*>(shared);
  Real* local = reinterpret_cast<Real*>(shared + kBoundsBytes);
  const index_t base = p.part_ptr[g];
  const index_t m = p.part_ptr[g + 1] - base;
  const index_t slot_begin = p.slot_ptr[g];
  const index_t slot_end = p.slot_ptr[g + 1];
  const index_t first_internal = slot_begin + p.external_slots[g];
  const index_t edges_begin = p.edge_ptr[slot_begin];
  prefetch_l2(p.edges + edges_begin, sizeof(Edge<Real>) * (p.edge_ptr[slot_end] - edges_begin), rank, Threads);
  for (int c = 0; c < rhs; ++c) {
    const Real* bc = b + static_cast<std::size_t>(c) * p.n;
    Real* xc = x + static_cast<std::size_t>(c) * p.n;
    for (index_t l = rank; l < m; l += Threads) {
      const index_t idx = p.load_index[base + l];
      Real v = bc[idx & kIndexMask];
      if (idx & kDivideOnLoad) v /= p.diagonal[base + l];
      local[l] = v;
    }
    if (slot_begin == slot_end) sync();
    for (index_t ws = slot_begin; ws < slot_end; ws += kSlotWindow) {
      const index_t we = min(ws + kSlotWindow, slot_end);
      for (index_t k = rank; k <= we - ws; k += Threads) bounds[k] = p.edge_ptr[ws + k];
      sync();  // the bounds (and, in the first window, the loaded unknowns) are ready
      auto fetch = [&](index_t s) {
        AheadEdge<Real> a{};
        if (s >= we) return a;
        const index_t e = bounds[s - ws] + rank;
        a.valid = e < bounds[s - ws + 1];
        if (a.valid) {
          a.edge = p.edges[e];
          if (s < first_internal) a.source = load_final(xc + a.edge.source);
        }
        return a;
      };
      // One barrier per slot: no two edges of a slot share a target, no source of a slot
      // is a target in it, and the thread applying a target's last edge also divides.
      auto step = [&](index_t s, const AheadEdge<Real>& first) {
        if (s >= we) return;  // the same for every thread of the task
        const bool external = s < first_internal;
        if (first.valid) apply_edge(local, first.edge, external ? first.source : local[first.edge.source]);
        const index_t e_end = bounds[s - ws + 1];
        for (index_t e = bounds[s - ws] + rank + Threads; e < e_end; e += kBatch * Threads) {
          Edge<Real> batch[kBatch];
          Real source[kBatch];
#pragma unroll
          for (int k = 0; k < kBatch; ++k)
            if (e + k * Threads < e_end) batch[k] = p.edges[e + k * Threads];
#pragma unroll
          for (int k = 0; k < kBatch; ++k)
            if (e + k * Threads < e_end)
              source[k] = external ? load_final(xc + batch[k].source) : local[batch[k].source];
#pragma unroll
          for (int k = 0; k < kBatch; ++k)
            if (e + k * Threads < e_end) apply_edge(local, batch[k], source[k]);
        }
        sync();  // also: every read of this window's bounds is done before the next window
      };
      // Three rotating registers sets, unrolled by hand: a loaded value is never copied
      // (a copy would wait for the load and expose its latency in every slot).
      AheadEdge<Real> a0 = fetch(ws), a1 = fetch(ws + 1), a2;
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
    for (index_t l = rank; l < m; l += Threads) xc[p.load_index[base + l] & kIndexMask] = local[l];
  }
  sync();
}

}  // namespace apiary::sptrsv
