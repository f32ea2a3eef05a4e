// Edge schedule of the TASSL solve: for each sub-graph, its incoming edges placed into
// time slots (the paper's Alg. 4-5), in the flat layout a device task reads, plus the
// performance model (the paper's eq. 5) and the choice of n_max it drives.
//
// Data layout ("permuted, slot-ordered"). Vertices are renumbered by the partition:
// the permuted index of a vertex is its position in Partition::vertices, so sub-graph g
// owns permuted indices [part_ptr[g], part_ptr[g+1]) and its local index l (0-based,
// ascending original order) is permuted index part_ptr[g] + l.
//
//   slot_ptr[g] .. slot_ptr[g+1]   the slots of sub-graph g, global slot numbers; the first
//                                  external_slots[g] of them are external, the remaining
//                                  internal_slots[g] internal
//   edge_ptr[s] .. edge_ptr[s+1]   the edges of slot s, targets ascending; for each edge e:
//     edge_target[e]               local index of the row i (the accumulator written)
//     edge_source[e]               external slot: permuted index of the column j (a vertex
//                                  of an earlier sub-graph, read from the global x);
//                                  internal slot: local index of j in the same sub-graph
//     edge_value[e]                L(i, j)
//   ready_ptr[g] .. ready_ptr[g+1] local indices (ascending) of the vertices of g without
//                                  internal incoming edges: divided once all external
//                                  slots of g are applied, before its first internal slot
//   division_ptr[s] .. [s+1]       local indices (ascending) divided at the end of slot s,
//                                  after its edges; always empty for external slots
//   diagonal[k]                    L(i, i) for the vertex of permuted index k
//
// The rules: (a) no two edges of one slot share a target; (b) an internal edge j -> i lies
// in a slot strictly after the one at whose end x_j was divided (a ready vertex counts
// as divided before the first internal slot); (c) every vertex is divided exactly once,
// at the end of the slot of its last incoming edge (ready vertices: after the external
// slots). So a task runs: load b, external slots, ready divisions, internal slots each
// followed by its divisions, store x, with a barrier between the edge and division parts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "sparse/uninit_vector.hpp"
#include "tasks/sptrsv/partition.hpp"

namespace apiary::sptrsv {

struct Schedule {
  index_t subgraphs = 0;
  std::vector<index_t> external_slots;  // n'_slots per sub-graph
  std::vector<index_t> internal_slots;  // n_slots per sub-graph
  std::vector<index_t> slot_ptr{0};     // subgraphs + 1
  std::vector<index_t> edge_ptr{0};     // total slots + 1
  // Edges and the diagonal: sized, then filled by ranges of rows on several threads
  // (sparse/uninit_vector.hpp).
  sparse::UninitVector<index_t> edge_source;
  sparse::UninitVector<index_t> edge_target;
  sparse::UninitVector<double> edge_value;
  std::vector<index_t> ready_ptr{0};  // subgraphs + 1
  std::vector<index_t> ready;
  std::vector<index_t> division_ptr{0};  // total slots + 1
  std::vector<index_t> division;
  sparse::UninitVector<double> diagonal;  // per permuted index
  // Per permuted index: the internal slot at whose end the vertex is divided, -1 for a
  // ready vertex (what ready and division list by sub-graph and slot).
  sparse::UninitVector<index_t> division_slot;
  sparse::UninitVector<index_t> position;  // per vertex: its permuted index

  index_t total_slots() const { return slot_ptr.back(); }
  std::size_t edges() const { return edge_source.size(); }
};

// Schedules every sub-graph of a feasible partition of `lower` (std::invalid_argument for
// an infeasible partition, a bad matrix as in require_lower_with_diagonal, or a stored
// zero diagonal, naming the row). External edges of a vertex take external slots 0, 1, ...
// in ascending column order, so n'_slots is the largest external in-degree. Internal
// edges are list-scheduled in topological order: each goes into the earliest slot after
// its source's division that holds no other edge into its target.
Schedule build_schedule(const Csr<double>& lower, const Partition& p);

namespace detail {
// What schedule_of_feasible fills in: the whole schedule, or only the slots (subgraphs,
// external_slots, internal_slots, slot_ptr, edge_ptr), division_slot and position, as they would
// be in the whole one: enough for slot_rounds and predicted_time, and for place_edges; no
// diagonal is read or checked. The analysis (whose system was checked for zero
// diagonals already) compares its candidate n_max by slots and places the edges of the
// chosen one only.
enum class ScheduleContent { all, slots };

// build_schedule without its checks of `lower` and the partition's feasibility, for a
// partition that partition() made of this `lower` (a whole schedule still checks for zero
// diagonals). With threads > 1 it runs on up to that many threads, in ranges of at least
// min_range rows (the slots: ranges of sub-graphs) or edges (the edges: ranges of rows,
// sub-graphs split between them); the result is the same.
//
// `stop`, when given, is asked between sub-graphs and every kStopEvery vertices of one; once
// it says true (and it must say true from then on) the pass ends early and the schedule
// is incomplete (analyze: a candidate the model has ruled out while its slots were being
// counted).
inline constexpr index_t kStopEvery = 1024;
Schedule schedule_of_feasible(const Csr<double>& lower, const Partition& p, unsigned threads = 1,
                              std::size_t min_range = std::size_t{1} << 16,
                              ScheduleContent content = ScheduleContent::all,
                              const std::function<bool()>& stop = {});

// Makes the slots of schedule_of_feasible (ScheduleContent::slots, of this `lower` and
// `p`) the whole schedule: the second half of ScheduleContent::all, on up to `threads`
// threads in ranges of at least min_range edges.
void place_edges(const Csr<double>& lower, const Partition& p, Schedule& s, unsigned threads,
                 std::size_t min_range);
}  // namespace detail

// "" when the schedule is consistent with the partition, rules (a)-(c) hold, every
// off-diagonal entry of L appears exactly once with its value and diagonal matches L;
// otherwise the first violation found.
std::string check_schedule(const Csr<double>& lower, const Partition& p, const Schedule& s);

// Eq. 5 of the paper, with constants to be measured on the device.
struct ModelConstants {
  double alpha;         // per sub-graph level (a grid-wide synchronisation)
  double tau_external;  // per external slot
  double tau_internal;  // per internal slot
  // Threads of the task that runs a sub-graph; 0: as many as any slot has edges (the
  // paper's assumption). Otherwise a slot of e edges costs ceil(e / threads) rounds.
  int threads = 0;
  double start = 0;  // per solve (the megakernel blocks' start and exit)
};

// Slot rounds of sub-graph g (external or internal slots): its slot count, or with
// threads > 0 the sum over its slots of max(1, ceil(edges / threads)).
std::int64_t slot_rounds(const Schedule& s, index_t g, bool external, int threads);

// The slot rounds of the slowest sub-graph of each level (the one with the largest
// tau_external * n'_slots + tau_internal * n_slots under c, rounds with c.threads; the
// first on a tie), summed over the levels.
struct PathTerms {
  std::int64_t external = 0;
  std::int64_t internal = 0;
};
PathTerms path_terms(const SubgraphDag& dag, const Schedule& s, ModelConstants c);

inline double model_seconds(index_t levels, PathTerms path, ModelConstants c) {
  return c.start + levels * c.alpha + c.tau_external * static_cast<double>(path.external) +
         c.tau_internal * static_cast<double>(path.internal);
}

// start + levels * alpha + sum over levels of the slowest sub-graph of that level, a
// sub-graph costing tau_external * n'_slots + tau_internal * n_slots (slot rounds with
// c.threads): start + levels * alpha + tau_external * path.external + tau_internal *
// path.internal.
double predicted_time(const SubgraphDag& dag, const Schedule& s, ModelConstants c);

// The candidate (each >= 1, at least one; std::invalid_argument otherwise) whose
// partition and schedule give the smallest predicted_time; the earliest one on a tie.
index_t choose_n_max(const Csr<double>& lower, std::span<const index_t> candidates,
                     ModelConstants c);

}  // namespace apiary::sptrsv
