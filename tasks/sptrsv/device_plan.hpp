// The flat layout the GPU solve reads, built once per matrix from the partition, the
// edge schedule and the sub-graph DAG (the analysis), plus a host emulation of exactly
// what one device task does with it.
//
// Per sub-graph g (permuted indices part_ptr[g] .. part_ptr[g+1], local index l):
//   load_index[k]          row of b / x of permuted index k (original numbering, or
//                          reversed for an upper solve), | kDivideOnLoad when the vertex
//                          has no incoming edge and is divided right after loading b
//   diagonal[k]            L(i, i) of permuted index k
//   slot_ptr[g] .. [g+1]   its slots; the first external_slots[g] are external
//   edge_ptr[s] .. [s+1]   the edges of slot s:
//     edge_source[e]       external slot: row of x (as load_index, without the flag);
//                          internal slot: local index of the source
//     edge_target[e]       local index of the target | kLastEdge when this is the
//                          target's last incoming edge: the thread that applies it
//                          also divides by the diagonal (no separate division step,
//                          so one barrier per slot)
//     edge_value[e]        L(i, j)
// The sub-graph DAG in the directions the device needs it: successors (resolved when a
// sub-graph finishes), predecessor counts (the dependency of each sub-graph), and the
// sub-graph levels (phases and kernel-per-level variants).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "tasks/sptrsv/partition.hpp"
#include "tasks/sptrsv/schedule.hpp"

namespace apiary::sptrsv {

inline constexpr index_t kDivideOnLoad = index_t(1) << 30;
inline constexpr index_t kLastEdge = index_t(1) << 30;
inline constexpr index_t kIndexMask = kDivideOnLoad - 1;

// Threads per sub-graph task: a slot rarely holds more edges than this.
inline constexpr int kTasslThreads = 256;

// Shared memory for the unknowns of one sub-graph task: it bounds n_max.
inline constexpr int kSubgraphSharedBytes = 48 * 1024;

// The largest sub-graph one task holds (the n_max limit): 6144 in double, 12288 in float.
template <class Real>
constexpr index_t max_subgraph() {
  return static_cast<index_t>(kSubgraphSharedBytes / sizeof(Real));
}

struct DevicePlan {
  index_t n = 0;
  index_t subgraphs = 0;
  index_t n_max = 0;
  index_t largest = 0;  // vertices of the largest sub-graph
  bool reversed = false;
  std::vector<index_t> part_ptr{0};
  std::vector<index_t> load_index;
  std::vector<double> diagonal;
  std::vector<index_t> external_slots;
  std::vector<index_t> slot_ptr{0};
  std::vector<index_t> edge_ptr{0};
  std::vector<index_t> edge_source;
  std::vector<index_t> edge_target;
  std::vector<double> edge_value;
  std::vector<index_t> succ_ptr{0};  // subgraphs + 1
  std::vector<index_t> succ;
  std::vector<index_t> pred_count;  // per sub-graph
  std::vector<index_t> level;       // sub-graph level of each sub-graph
  std::vector<index_t> level_ptr{0};
  std::vector<index_t> order;  // sub-graphs grouped by level

  index_t levels() const { return static_cast<index_t>(level_ptr.size()) - 1; }
};

// `reversed`: the rows of `lower` are numbered backwards (row i of lower is row n-1-i of
// the user's upper-triangular matrix); b and x are then read and written backwards so
// the solve needs no permutation kernels. Throws std::invalid_argument when the index
// flags would not fit (n >= 2^30).
DevicePlan build_device_plan(const Csr<double>& lower, const Partition& p, const Schedule& s,
                             const SubgraphDag& dag, bool reversed = false);

// Runs the device algorithm on the host, sub-graph by sub-graph in index order, each slot
// as a SIMD step (all edges of a slot read before any writes). b and x in user order.
std::vector<double> solve_with_plan(const DevicePlan& plan, std::span<const double> b);

}  // namespace apiary::sptrsv
