// The flat layout the GPU solve reads, built once per matrix from the partition, the
// edge schedule and the sub-graph DAG (the analysis), plus a host emulation of exactly
// what one device task does with it.
//
// Per sub-graph g (permuted indices part_ptr[g] .. part_ptr[g+1], local index l):
//   load_index[k]          row of b / x of permuted index k (original numbering, or
//                          reversed for an upper solve)
//   diagonal[k]            L(i, i) of permuted index k
//   slot_ptr[g] .. [g+1]   its slots; the first external_slots[g] are external rows
//   edge_ptr[s] .. [s+1]   the edges of slot s:
//     edge_source[e]       external row: row of x (as load_index); internal slot: local
//                          index of the source
//     edge_target[e]       local index of the target
//     edge_value[e]        L(i, j) / L(i, i)
// The task divides b by the diagonal as it loads it and the edges carry L(i, j) / L(i, i),
// so x_i = b_i / L(i, i) - sum_j (L(i, j) / L(i, i)) x_j needs no division step: x_i is
// final after its last incoming edge, exactly when the schedule's division would have
// happened (rule (c)), and an edge record is 16 bytes in double instead of 24.
// External rows are the schedule's external slots laid out again for the device: edge k
// of a row is applied by thread k of the task, every edge into one target is at the same
// position of its rows (so one thread applies them one after the other), a row holds at
// most kTasslThreads edges and no row is longer than the one before. The task therefore
// needs no barrier between external rows, and loads all of them at once.
// The sub-graph DAG in the directions the device needs it: successors (resolved when a
// sub-graph finishes), predecessor counts (the dependency of each sub-graph), and the
// sub-graph levels (phases and kernel-per-level variants).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "tasks/sptrsv/partition.hpp"
#include "tasks/sptrsv/schedule.hpp"

namespace apiary::sptrsv {

// Threads per sub-graph task (the plan's width, DevicePlan::threads): 256, or 512 where
// slots hold more edges than 256 threads take in one round. The wider task pays more at
// each barrier and runs one block per SM instead of two, so the analysis's model chooses
// the width per matrix with the partition (docs/sptrsv.md, "Task width").
inline constexpr int kTasslThreads = 256;
inline constexpr int kWideTasslThreads = 512;
inline constexpr bool is_task_width(int threads) { return threads == kTasslThreads || threads == kWideTasslThreads; }

// Shared memory for the unknowns of one sub-graph task: it bounds n_max. A 256-thread
// task's block shares its SM with another (registers); a 512-thread one has the SM to
// itself, so it may hold four times as many unknowns.
inline constexpr int kSubgraphSharedBytes = 48 * 1024;
inline constexpr int kWideSubgraphSharedBytes = 4 * kSubgraphSharedBytes;

// The largest sub-graph one task of `threads` threads holds (the n_max limit): 6144 in
// double and 12288 in float at 256 threads, four times that at 512.
template <class Real>
constexpr index_t max_subgraph(int threads = kTasslThreads) {
  return static_cast<index_t>((threads == kWideTasslThreads ? kWideSubgraphSharedBytes : kSubgraphSharedBytes) /
                              sizeof(Real));
}

// What a task needs of its sub-graph before its first load (the work item of the
// tassl-deps task, so that no load of it stands between the release and the solve).
struct SubgraphTask {
  index_t g;
  index_t base;            // first permuted index
  index_t size;            // vertices
  index_t first_slot;      // first external row
  index_t first_internal;  // first internal slot
  index_t end_slot;
  index_t first_edge;
  index_t end_edge;
  index_t first_succ;      // its successor sub-graphs in DevicePlan::succ
  index_t end_succ;
};

struct DevicePlan {
  index_t n = 0;
  index_t subgraphs = 0;
  index_t n_max = 0;
  index_t largest = 0;  // vertices of the largest sub-graph
  int threads = kTasslThreads;  // of each sub-graph task: external rows are at most this wide
  bool reversed = false;
  std::vector<index_t> part_ptr{0};
  std::vector<index_t> load_index;
  sparse::UninitVector<double> diagonal;  // these four as the Schedule's they are made from
  std::vector<index_t> external_slots;
  std::vector<index_t> slot_ptr{0};
  std::vector<index_t> edge_ptr{0};
  sparse::UninitVector<index_t> edge_source;
  sparse::UninitVector<index_t> edge_target;
  sparse::UninitVector<double> edge_value;
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
// the solve needs no permutation kernels. `threads`: the task width the external rows are
// laid out for (is_task_width; std::invalid_argument otherwise).
DevicePlan build_device_plan(const Csr<double>& lower, const Partition& p, const Schedule& s,
                             const SubgraphDag& dag, bool reversed = false, int threads = kTasslThreads);
// The same, taking the schedule's diagonal and edge arrays over and rewriting the edges
// in place (the plan keeps each edge where the schedule put it, only the external rows
// are laid out again): analyze, whose schedule is not needed afterwards, saves allocating
// and filling them twice.
DevicePlan build_device_plan(const Csr<double>& lower, const Partition& p, Schedule&& s, const SubgraphDag& dag,
                             bool reversed = false, int threads = kTasslThreads);

// Puts the values of `lower` into a plan made of a matrix of the same pattern (the same
// rows, every off-diagonal entry where it was, the diagonal stored last in each row): the
// diagonal and every edge value, in place; the partition, schedule and layout depend on
// the pattern alone and stay. Ranges of sub-graphs on several threads, a large
// sub-graph's edges split between them (each edge found by a binary search in its row).
// std::invalid_argument, naming a row (0-based, of `lower`), where the pattern differs or
// a diagonal is zero; the plan is then unchanged.
void refresh_values(DevicePlan& plan, const Csr<double>& lower);

// One header per sub-graph, in sub-graph order.
std::vector<SubgraphTask> subgraph_tasks(const DevicePlan& plan);

// "" when the external rows keep the rules above, otherwise the first violation found.
std::string check_device_plan(const DevicePlan& plan);

// Runs the device algorithm on the host, sub-graph by sub-graph in index order, each slot
// as a SIMD step (all edges of a slot read before any writes). b and x in user order.
std::vector<double> solve_with_plan(const DevicePlan& plan, std::span<const double> b);

}  // namespace apiary::sptrsv
