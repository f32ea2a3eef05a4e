// The device side of the TASSL solve that every TASSL variant shares: the plan in device
// memory and the solve of one sub-graph by one group of threads (a task of the runtime,
// or a block of the kernel-per-level variant).
#pragma once

#include <cuda_runtime.h>

#include "tasks/sptrsv/device_plan.hpp"

namespace apiary::sptrsv {

// Threads per sub-graph task: a slot rarely holds more edges than this.
inline constexpr int kTasslThreads = 256;

// One edge of the schedule, loaded with one 16-byte (double) or 12-byte (float) access.
template <class Real>
struct Edge {
  index_t source;  // see DevicePlan::edge_source
  index_t target;  // local index | kLastEdge
  Real value;
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

// Solves sub-graph g for `rhs` right-hand sides (column c of b and x at c * n), with
// `Threads` threads of rank 0 .. Threads-1 calling it together; `sync` is their barrier
// and `local` holds part_ptr[g+1] - part_ptr[g] values. The external sources must be
// final (the sub-graphs they belong to have finished and their writes are visible).
// Returns after a barrier that follows the last write of x.
template <int Threads, class Real, class Sync>
__device__ void solve_subgraph(const PlanView<Real>& p, index_t g, const Real* b, Real* x, int rhs, int rank,
                               Real* local, Sync&& sync) {
  const index_t base = p.part_ptr[g];
  const index_t m = p.part_ptr[g + 1] - base;
  const index_t slot_begin = p.slot_ptr[g];
  const index_t slot_end = p.slot_ptr[g + 1];
  const index_t first_internal = slot_begin + p.external_slots[g];
  for (int c = 0; c < rhs; ++c) {
    const Real* bc = b + static_cast<std::size_t>(c) * p.n;
    Real* xc = x + static_cast<std::size_t>(c) * p.n;
    for (index_t l = rank; l < m; l += Threads) {
      const index_t idx = p.load_index[base + l];
      Real v = bc[idx & kIndexMask];
      if (idx & kDivideOnLoad) v /= p.diagonal[base + l];
      local[l] = v;
    }
    sync();
    // One barrier per slot: no two edges of a slot share a target, no source of a slot
    // is a target in it, and the thread applying a target's last edge also divides.
    for (index_t s = slot_begin; s < slot_end; ++s) {
      const index_t e_end = p.edge_ptr[s + 1];
      const bool external = s < first_internal;
      for (index_t e = p.edge_ptr[s] + rank; e < e_end; e += Threads) {
        const Edge<Real> edge = p.edges[e];
        const index_t t = edge.target & kIndexMask;
        const Real source = external ? load_final(xc + edge.source)
                                     : local[edge.source];
        Real v = local[t] - edge.value * source;
        if (edge.target & kLastEdge) v /= p.diagonal[base + t];
        local[t] = v;
      }
      sync();
    }
    // The same thread wrote local[l] last for the next column's load: no barrier needed.
    for (index_t l = rank; l < m; l += Threads) xc[p.load_index[base + l] & kIndexMask] = local[l];
  }
  sync();
}

}  // namespace apiary::sptrsv
