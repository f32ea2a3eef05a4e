// The edges between consecutive levels of a finished breadth-first search, as the
// Cuthill–McKee search from the same root needs them (rcm_tasks.cu: Rank). Internal to
// tasks/rcm.
//
// A BFS from r and the Cuthill–McKee search from r have the same level sets: a level is
// the set of vertices at one distance from r, whatever the order inside it. Only the order
// inside each level differs, and it depends on the order of the level before. So once the
// start-node search's last BFS has left its levels in the queue (queue[level_begin[k],
// level_begin[k+1]) is level k), the Cuthill–McKee order needs no claims: a vertex's parent
// is its first neighbour in the level before, which a minimum over those neighbours finds.
// These kernels list, for each level k, its edges into level k+1 as pairs of local
// indices (j in level k, c in level k+1), all levels' pairs in one array, level by level,
// so that the sequential part reads each level's pairs as one contiguous range. They run
// over the whole GPU, once per search.
#pragma once

#include <cub/device/device_scan.cuh>

#include <cstddef>
#include <cstdint>

#include "runtime/cuda_check.hpp"
#include "sparse/formats.hpp"

namespace apiary::rcm::detail {

using sparse::index_t;

// A pair packs j << 16 | c, so it describes levels of at most this many vertices; the
// sequential part gives up on a wider level before it reads its pairs.
constexpr index_t kPairLevelWidth = index_t{1} << 16;

struct LevelPairsArgs {
  const index_t* row_ptr;
  const index_t* col;
  const index_t* queue;        // the BFS order, positions 0 .. size-1
  const index_t* level_begin;  // first position of each level, levels + 1 entries
  index_t levels;
  index_t size;
  const index_t* degree;       // without self-loops
  index_t* bfs_pos;     // out: position of each vertex of the search in the queue
  index_t* degree_at;   // out: degree of the vertex at each position (read coalesced)
  index_t* level_of;    // out: level of each vertex of the search
  index_t* count;       // out: pairs of each position (size + 1 entries; scan input)
  index_t* pair_begin;  // out: first pair of each position (size + 1 entries)
  std::uint32_t* pairs;  // out: at most (edges of the search) / 2
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

__global__ void index_levels_kernel(LevelPairsArgs a) {
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

// Edges of position q's vertex into the next level. A thread per vertex: the graphs
// whose levels this path takes are meshes with short rows.
template <bool Fill>
__global__ void pairs_kernel(LevelPairsArgs a) {
  const index_t q = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (q >= a.size) return;
  const index_t u = a.queue[q];
  const index_t k = a.level_of[u];
  const index_t below = k + 1 < a.levels ? a.level_begin[k + 1] : 0;
  const auto j = static_cast<std::uint32_t>(q - a.level_begin[k]);
  index_t n = 0;
  index_t at = Fill ? a.pair_begin[q] : 0;
  for (index_t e = a.row_ptr[u]; e < a.row_ptr[u + 1]; ++e) {
    const index_t v = a.col[e];
    if (a.level_of[v] != k + 1) continue;  // the component's vertices all have a level
    if constexpr (Fill) {
      a.pairs[at++] = j << 16 | (static_cast<std::uint32_t>(a.bfs_pos[v] - below) & 0xffffu);
    } else {
      ++n;
    }
  }
  if constexpr (!Fill) a.count[q] = n;
}

}  // namespace

// Bytes of CUB temporary storage build_level_pairs needs for up to n positions.
inline std::size_t level_pairs_scan_bytes(index_t n) {
  std::size_t bytes = 0;
  APIARY_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<const index_t*>(nullptr),
                                                  static_cast<index_t*>(nullptr), n + 1));
  return bytes;
}

// Fills a's outputs, stream-ordered (no synchronization).
inline void build_level_pairs(const LevelPairsArgs& a, void* scan_storage, std::size_t scan_bytes,
                              cudaStream_t stream = nullptr) {
  constexpr int threads = 256;
  const auto blocks = [](index_t count) { return static_cast<unsigned>((count + threads - 1) / threads); };
  index_levels_kernel<<<blocks(a.size + 1), threads, 0, stream>>>(a);
  APIARY_CUDA_CHECK_LAUNCH();
  pairs_kernel<false><<<blocks(a.size), threads, 0, stream>>>(a);
  APIARY_CUDA_CHECK_LAUNCH();
  APIARY_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scan_storage, scan_bytes, a.count, a.pair_begin, a.size + 1, stream));
  pairs_kernel<true><<<blocks(a.size), threads, 0, stream>>>(a);
  APIARY_CUDA_CHECK_LAUNCH();
}

}  // namespace apiary::rcm::detail
