// Reverse Cuthill–McKee on the GPU (docs/rcm.md).
//
// Variant `tasks` (rcm_tasks.cu): the level loop runs on the device as a cyclic phased
// task program on the runtime, one run per breadth-first search: a level that fits one
// task is expanded and sorted inside a single looping task; wider levels are delegated to
// per-chunk expansion tasks, chunk sorts and merge passes, each group in its own phase.
// The Cuthill–McKee search of a component whose root came from the start-node search
// orders that search's last BFS levels instead (no claims; RcmGpuOptions::reuse_levels).
//
// Variant `cub`: a level-synchronous breadth-first search driven from the host. Per level,
// one kernel expands the current level (a warp per vertex) and claims every unvisited
// neighbour with an atomic min of the parent's position; the host reads back the size of
// the new level (one 4-byte copy per level); the new level is then sorted by (parent
// position, degree, index) with cub::DeviceRadixSort (tasks/rcm/level_keys.hpp) and so
// lands exactly where the serial sparse::rcm puts it. The pseudo-peripheral start node
// is found by repeated breadth-first searches with the same expansion kernel.
//
// The result is identical to sparse::rcm (and to sparse::rcm_from with the same start
// nodes): same components in the same order (least degree first: sparse::LeastDegreeFirst),
// same start nodes, same permutation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "runtime/scheduler.hpp"
#include "sparse/formats.hpp"

namespace apiary::rcm {

using sparse::index_t;

enum class RcmVariant { cub, tasks };

inline std::string_view to_string(RcmVariant v) {
  switch (v) {
    case RcmVariant::cub: return "cub";
    case RcmVariant::tasks: return "tasks";
  }
  return "unknown";
}

inline std::optional<RcmVariant> parse_variant(std::string_view s) {
  if (s == "cub") return RcmVariant::cub;
  if (s == "tasks") return RcmVariant::tasks;
  return std::nullopt;
}

struct RcmGpuOptions {
  // One root per component in component order (as sparse::rcm_from); empty: the
  // pseudo-peripheral node of each component, found on the GPU.
  std::vector<index_t> start_nodes;
  // `cub`: sort every level with two radix passes even when one 64-bit key would do (tests).
  bool force_two_pass_sort = false;
  // `tasks`: positions per expansion, sort and merge task, and the widest level one task
  // handles alone; 1 .. kMaxTaskTile, 0 = kMaxTaskTile. Small values force the wide-level
  // path (chunk sorts, several merge passes) on small graphs (tests).
  int task_tile = 0;
  // `tasks`: order a component from the levels of its start-node search's last BFS (same
  // root, same level sets; no claims), falling back to a search with claims for levels
  // wider than 65536 or a wide level with a parent of many children. false: always search
  // with claims (tests, comparisons). Given start nodes have no BFS to reuse.
  bool reuse_levels = true;
  // `tasks`, graphs of at most 2^20 vertices: a BFS claims in a visited bitmap in shared
  // memory once a task is 16 narrow levels deep, in a program of its own, unless the BFS
  // before it in the component had more than 1024 vertices per level on average (docs/rcm.md).
  // false: never (tests, comparisons).
  bool bfs_bitmap = true;
  // `tasks`, with the bitmap, graphs whose largest degree is at most 8: the BFS levels that
  // claim in the bitmap read each vertex's neighbours from a copy of the graph padded to 4
  // or 8 slots a vertex, one load a neighbour with no row bounds before it. false: never
  // (tests, comparisons).
  bool padded_rows = true;
};

inline constexpr int kMaxTaskTile = 2048;  // 512 threads x 4 keys per task (tasks variant)

struct RcmGpuResult {
  std::vector<index_t> perm;         // perm[new] = old (sparse/transform.hpp convention)
  std::vector<index_t> start_nodes;  // root of each component, in component order
  index_t components = 0;
  index_t isolated = 0;        // components of one vertex
  index_t cm_levels = 0;       // levels of all Cuthill–McKee searches (host round trips)
  int bfs_count = 0;           // breadth-first searches of the start-node finder
  bool symmetrized = false;    // the pattern was not symmetric: A + A^T was ordered
  bool two_pass_sort = false;  // some level needed (or was forced to) two radix passes
  double symmetrize_ms = 0;    // host, only when symmetrized; not part of total_ms
  double setup_ms = 0;         // allocation, upload, degrees
  double start_ms = 0;         // start-node search
  double permutation_ms = 0;   // Cuthill–McKee levels and sorts, download, reversal
  double total_ms = 0;         // setup + start + permutation
  std::size_t device_bytes = 0;  // peak of this call's own device allocations
  // `tasks` only, summed over its runs (one per search):
  int runs = 0;
  std::uint64_t tasks = 0;
  std::uint64_t phase_switches = 0;
  int cm_from_levels = 0;  // Cuthill–McKee searches ordered from a BFS's levels
  int cm_fallbacks = 0;    // searches whose level path gave up and searched with claims (one more run)
  int cm_overlapped = 0;   // level paths that ran during the start-node search's last BFS (no run of their own)
  int bitmap_bfs = 0;      // BFS runs of the program with the visited bitmap (RcmGpuOptions::bfs_bitmap)
  int padded_slots = 0;    // slots a vertex of the padded copy (RcmGpuOptions::padded_rows); 0: none made
  std::int64_t rank_fast_levels = 0;     // levels ordered from a BFS's levels by Rank's fast path
  std::int64_t rank_general_levels = 0;  // and by its general path (rcm_tasks.cu: Rank)
};

// Throws std::invalid_argument for a non-square matrix or bad start nodes (before any
// GPU use), std::runtime_error("no GPU available (...)") without a usable device. The
// scheduler runs the `tasks` variant's program; `cub` does not use it. A failed run of
// the task program throws the runtime's apiary::RunError.
RcmGpuResult rcm_gpu(const sparse::Csr<double>& a, RcmVariant variant = RcmVariant::cub,
                     Scheduler scheduler = Scheduler::megakernel, const RcmGpuOptions& options = {});

// The same algorithm (levels, atomic-min parents in a scrambled expansion order, the
// packed keys and the stable sort passes) emulated on the host, through the same host
// driver. No GPU; for tests and for explaining the algorithm.
RcmGpuResult rcm_level_emulation(const sparse::Csr<double>& a, const RcmGpuOptions& options = {});

}  // namespace apiary::rcm
