// The edges between consecutive levels of a finished breadth-first search, as the
// Cuthill–McKee search from the same root needs them (rcm_tasks.cu: Rank). Internal to
// tasks/rcm.
//
// A BFS from r and the Cuthill–McKee search from r have the same level sets: a level is
// the set of vertices at one distance from r, whatever the order inside it. Only the order
// inside each level differs, and it depends on the order of the level before: level k+1 is
// ordered by (smallest rank of a parent in level k, degree, index). So once the start-node
// search's last BFS has left its levels in the queue (queue[level_begin[k],
// level_begin[k+1]) is level k), the Cuthill–McKee order needs no claims. These kernels
// list, for each vertex of level k+1, its parents in level k, grouped by child in BFS
// order: the parents of the vertex at queue position q are
// parents[parent_begin[q], parent_begin[q+1]). An entry packs
//   j | t << 16: j, the parent's index in its level; t, the child's place among the
//   parent's children in level k+1 by (degree, index), or kUnranked where the parent
//   has more than kRankedChildren of them.
// A child then takes the smallest rank over its parents with no atomics, and among the
// children of that parent that take it too (its siblings), its place is the number of
// them with a smaller t. They run over the whole GPU, once per search.
#pragma once

#include <cub/device/device_scan.cuh>

#include <cstddef>
#include <cstdint>

#include "runtime/cuda_check.hpp"
#include "sparse/formats.hpp"

namespace apiary::rcm::detail {

using sparse::index_t;

// An entry packs j in 16 bits, so it describes levels of at most this many vertices; the
// sequential part gives up on a wider level before it reads its entries.
constexpr index_t kPairLevelWidth = index_t{1} << 16;
// Children per parent that get their place t (a bit of a 32-bit mask in Rank's fast levels).
constexpr index_t kRankedChildren = 32;
constexpr std::uint32_t kUnranked = 0xffffu;

struct LevelParentsArgs {
  const index_t* row_ptr;
  const index_t* col;
  const index_t* queue;        // the BFS order, positions 0 .. size-1
  const index_t* level_begin;  // first position of each level, levels + 1 entries
  index_t levels;
  index_t size;
  const index_t* degree;       // without self-loops
  index_t* bfs_pos;       // out: position of each vertex of the search in the queue
  index_t* degree_at;     // out: degree of the vertex at each position (read coalesced)
  index_t* level_of;      // out: level of each vertex of the search
  index_t* count;         // parents of each position (size + 1 entries; the scan's input), zero after
  index_t* parent_begin;  // out: first entry of each position (size + 1 entries)
  std::uint32_t* parents;  // out: one entry per edge between consecutive levels
};

namespace {

__device__ index_t level_of_position(const index_t* level_begin, index_t levels, index_t q) {
  index_t lo = 0, hi = levels;  // the last k with level_begin[k] <= q
  while (hi - lo > 1) {
    const index_t mid = lo + (hi - lo) / 2;
    if (level_begin[mid] <= q) lo = mid;
    else hi = mid;
  }
  return lo;
}

__global__ void index_levels_kernel(LevelParentsArgs a) {
  const index_t q = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (q > a.size) return;
  if (q == a.size) {
    a.count[q] = 0;  // the scan's last entry is the total
    return;
  }
  const index_t v = a.queue[q];
  a.bfs_pos[v] = q;
  a.degree_at[q] = a.degree[v];
  a.level_of[v] = level_of_position(a.level_begin, a.levels, q);
}

// Parents of position q's vertex (its neighbours in the level before). A thread per
// vertex: the graphs whose levels this path takes are meshes with short rows.
__global__ void parent_count_kernel(LevelParentsArgs a) {
  const index_t q = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (q >= a.size) return;
  const index_t u = a.queue[q];
  const index_t k = a.level_of[u];
  index_t n = 0;
  if (k > 0) {
    for (index_t e = a.row_ptr[u]; e < a.row_ptr[u + 1]; ++e) n += a.level_of[a.col[e]] == k - 1;
  }
  a.count[q] = n;
}

// From the parent's side, which knows all its children: position q's vertex u writes an
// entry for each of its children into the child's list, at a slot taken by counting the
// child's count down (the order inside a list does not matter: the minimum over it does).
__global__ void parent_fill_kernel(LevelParentsArgs a) {
  const index_t q = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (q >= a.size) return;
  const index_t u = a.queue[q];
  const index_t k = a.level_of[u];
  if (k + 1 >= a.levels) return;
  const index_t first = a.row_ptr[u], last = a.row_ptr[u + 1];
  index_t children = 0;
  for (index_t e = first; e < last; ++e) children += a.level_of[a.col[e]] == k + 1;
  const auto j = static_cast<std::uint32_t>(q - a.level_begin[k]) & 0xffffu;
  for (index_t e = first; e < last; ++e) {
    const index_t v = a.col[e];
    if (a.level_of[v] != k + 1) continue;
    std::uint32_t t = kUnranked;
    if (children <= kRankedChildren) {
      const index_t dv = a.degree[v];
      t = 0;
      for (index_t f = first; f < last; ++f) {
        const index_t w = a.col[f];
        if (w == v || a.level_of[w] != k + 1) continue;
        const index_t dw = a.degree[w];
        t += dw < dv || (dw == dv && w < v);
      }
    }
    const index_t p = a.bfs_pos[v];
    const index_t slot = atomicSub(&a.count[p], 1) - 1;
    a.parents[a.parent_begin[p] + slot] = j | t << 16;
  }
}

}  // namespace

// Bytes of CUB temporary storage build_level_parents needs for up to n positions.
inline std::size_t level_parents_scan_bytes(index_t n) {
  std::size_t bytes = 0;
  APIARY_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<const index_t*>(nullptr),
                                                  static_cast<index_t*>(nullptr), n + 1));
  return bytes;
}

// Fills a's outputs, stream-ordered (no synchronization).
inline void build_level_parents(const LevelParentsArgs& a, void* scan_storage, std::size_t scan_bytes,
                                cudaStream_t stream = nullptr) {
  constexpr int threads = 256;
  const auto blocks = [](index_t count) { return static_cast<unsigned>((count + threads - 1) / threads); };
  index_levels_kernel<<<blocks(a.size + 1), threads, 0, stream>>>(a);
  APIARY_CUDA_CHECK_LAUNCH();
  parent_count_kernel<<<blocks(a.size), threads, 0, stream>>>(a);
  APIARY_CUDA_CHECK_LAUNCH();
  APIARY_CUDA_CHECK(
      cub::DeviceScan::ExclusiveSum(scan_storage, scan_bytes, a.count, a.parent_begin, a.size + 1, stream));
  parent_fill_kernel<<<blocks(a.size), threads, 0, stream>>>(a);
  APIARY_CUDA_CHECK_LAUNCH();
}

}  // namespace apiary::rcm::detail
