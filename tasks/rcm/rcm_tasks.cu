// Variant `tasks` of the GPU RCM (rcm_gpu.hpp, docs/rcm.md): the level loop of every
// breadth-first search runs on the device, as one run of a cyclic phased task program.
// The host driver (rcm_driver.hpp) is the one the `cub` variant uses; only the engine's
// searches differ.
//
// The program, all task types 512 threads (why 512: at kThreads below):
//
//   phase 0  Narrow     one task that loops over levels while they fit one task
//                       (at most `tile` vertices), with the level and the next one in
//                       shared memory: expands a level, and in a Cuthill–McKee search sorts
//                       the next level (a counting sort by parent, or a merge sort when a
//                       parent has many children), then goes on. No phase switch, no
//                       launch, no host round trip per level.
//            Expand     one task per 256 positions of a wider level.
//            Plan       one task after a wide expansion, waiting behind a dependency that
//                       every Expand task of the level resolves (a dependency hop is
//                       cheaper than a phase switch), or after a sort: ends the search,
//                       sorts a small next level itself, delegates a large one to
//                       SortChunk, and starts the next level (Narrow or Expand tasks).
//   phase 1  SortChunk  one task per `tile` vertices of a large level: sorted runs.
//   phase 2  Merge<0>   merge passes: pass p merges pairs of runs of tile << p keys, one
//   phase 3  Merge<1>   task per `tile` outputs; passes alternate between the two types
//                       (phases), so each pass starts after the previous one has ended;
//                       the last pass writes the level into the queue and hands back to
//                       Plan (phase 0, after the cyclic wrap).
//   phase 0  Rank       the Cuthill–McKee search from the levels of one of the
//                       start-node search's BFS (same root, same level sets): no claims,
//                       one task walks the levels (see the comment above RankShared),
//                       usually beside the next BFS's Narrow task in the same run
//                       (TaskEngine::bfs). The searches with claims below remain for
//                       given roots and for what Rank gives up on.
//
// Claims are those of the `cub` variant (rcm_gpu.cu): a BFS marks a vertex with the
// search's stamp (atomic exchange); Cuthill–McKee takes the smallest parent position with
// an atomic min, and the next level is sorted by (parent position, degree, index), which
// puts it where the serial sparse::rcm puts it. Sorts compare (parent position relative to
// the parent level, degree, vertex) as a 64-bit and a 32-bit word, so no key bits need
// computing and any n or degree fits. Expansion is balanced over edges, not vertices: the
// task scans the row lengths of its positions and spreads their edges over its threads
// (Expand: 4 a thread per round; Narrow: up to 8 a thread at once), so a hub vertex is
// spread over all the task's threads.
//
// The program exists twice: RcmProgram<true> has Narrow<true>, whose BFS claims in a
// visited bitmap in shared memory once it is deep (see NarrowBitmapShared), and the engine
// runs a BFS in it where that pays (TaskEngine::bfs); everything else runs in
// RcmProgram<false>.
//
// Ordering: within a task, ctx.sync() (a CTA barrier over its threads) orders its
// threads' global and shared accesses; between tasks of different phases, the phase
// switch does; from the Expand tasks to their Plan, ctx.sync() and then the dependency's
// acquire-release resolve. Appends reserve slots with one atomic per warp (Expand: on
// LevelState::tail; Narrow: on a counter in shared memory), so every vertex is written
// exactly once.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cub/block/block_merge_sort.cuh>
#include <cuda/atomic>

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cstdint>
#include <optional>

#include "schedulers/run.cuh"
#include "tasks/rcm/device_graph.cuh"
#include "tasks/rcm/level_parents.cuh"
#include "tasks/rcm/rcm_driver.hpp"
#include "tasks/rcm/rcm_tasks.hpp"

namespace apiary::rcm::detail {

namespace {

namespace cg = cooperative_groups;

// Threads of every task type. The thesis's tasks, and issue 6, have 256; on an H200 (session
// 32, bench_rcm, alternated in one call) 512 took the start-node search of poisson2d:1000
// from 27.4-27.7 to 21.1-21.3 ms and of poisson3d:100 from 15.1-15.3 to 10.5-10.6 ms (the
// random graph: 7.4-9.4 ms total either way); 1024 took 23.9-24.1 and 11.6 ms. A narrow
// level is a few dozen dependent memory latencies and barriers whatever the width, and
// twice the threads issue each round's loads in half the rounds. The megakernel's block
// is the largest task's, one per SM at 128 registers (Config::min_blocks).
constexpr int kThreads = 512;
constexpr int kItems = kMaxTaskTile / kThreads;  // keys per thread in a task's sort
constexpr int kWarps = kThreads / 32;
constexpr unsigned kUnclaimed = 0xffffffffu;
// Levels one Narrow task handles before it queues its successor: a task that ran for
// seconds (a path of millions of vertices) would look stalled to the watchdog.
constexpr int kLevelsPerTask = 4096;
// Edges per thread per round of an expansion: their loads and atomics are issued
// together, so a round costs about one chain of memory latencies instead of four. The
// loops over them are unrolled: an array indexed at run time would live in local memory.
// 4 rather than 8: on an H100 the smaller code took a quarter off poisson2d:1000 under the
// megakernel (whose blocks are limited to 128 registers) and changed little elsewhere.
constexpr int kEdgeBatch = 4;
// Positions per Expand task of a wide level: small, so a wide level spreads over many
// multiprocessors (a task of 2048 positions would run dozens of rounds on one).
constexpr index_t kExpandChunk = 256;
// The counting sort of a narrow level (sort_next) ranks each child among its siblings by
// comparing with all of them; above this many siblings the merge sort is used.
constexpr int kMaxSiblings = 64;
// Edges a Narrow task expands at once (kPassItems per thread): a level of a 2D or 3D mesh
// that fits one task has at most a few thousand, so it takes one pass, whose column
// loads, claim-word loads and claims are each issued at once for the whole level.
constexpr int kPassEdges = 4096;
constexpr int kPassItems = kPassEdges / kThreads;
static_assert(kItems * kThreads == kMaxTaskTile);

template <class T>
using device_ref = cuda::atomic_ref<T, cuda::thread_scope_device>;

struct SortKey {
  std::uint64_t major;  // (parent position - first position of the parent level) << 32 | degree
  std::uint32_t vertex;
};
struct KeyLess {
  __device__ bool operator()(const SortKey& a, const SortKey& b) const {
    return a.major < b.major || (a.major == b.major && a.vertex < b.vertex);
  }
};
constexpr SortKey kMaxKey{~std::uint64_t{0}, ~std::uint32_t{0}};

// The search's progress, in device memory. Written by the task that owns the current
// step (Narrow, Plan) and read by the tasks it creates.
struct LevelState {
  index_t begin;  // the current level is queue[begin, end)
  index_t end;
  index_t tail;   // end of the next level while it is being built (appends: atomic add)
  index_t levels;  // non-empty levels so far
  unsigned long long best;  // BFS: min (degree << 32 | vertex) over the last level
};

// Cuthill–McKee from the levels of a BFS (Rank; level_parents.cuh).
struct RankEnv {
  // The BFS whose levels are ordered: its queue and level starts (a BFS of the same run
  // may be filling the other pair of buffers), and the state Rank reports to.
  const index_t* queue = nullptr;
  const index_t* level_begin = nullptr;
  LevelState* state = nullptr;
  const std::uint32_t* parents = nullptr;  // each child's parents (level_parents.cuh)
  const index_t* parent_begin = nullptr;   // first entry of each BFS position
  const index_t* bfs_pos = nullptr;      // position of each vertex in the BFS order (queue)
  const index_t* degree_at = nullptr;    // degree of the vertex at each BFS position
  index_t levels = 0;
  index_t* order = nullptr;  // out: the Cuthill–McKee order, positions 0 .. size-1
  // The arrays of a level wider than the tile (RankShared holds narrower ones there):
  unsigned* minrank = nullptr;
  index_t* count = nullptr;
  index_t* rank[2] = {nullptr, nullptr};
  uint2* child = nullptr;
  unsigned long long* level_counts = nullptr;  // levels ordered by the fast path, by the general one
};

struct TaskEnv {
  const index_t* row_ptr = nullptr;
  const index_t* col = nullptr;
  const index_t* degree = nullptr;  // without self-loops
  index_t* queue = nullptr;         // the search's order, positions 0 .. size-1
  unsigned* mark = nullptr;         // BFS: stamp of the last search that reached the vertex
  unsigned* parent = nullptr;       // Cuthill–McKee: smallest parent position; kUnclaimed
  SortKey* runs[2] = {nullptr, nullptr};  // merge passes: source and target alternate
  LevelState* state = nullptr;
  index_t* level_begin = nullptr;  // BFS: first position of each level (levels + 1 entries)
  RankEnv rank;
  Dependency* plan = nullptr;  // the Plan after a wide expansion waits here
  unsigned stamp = 0;  // BFS: this search's stamp
  bool bfs = false;    // start-node search (BFS) or Cuthill–McKee
  index_t vertices = 0;  // of the graph: the bitmap (Narrow<true>) covers at most kBitmapBits
  index_t tile = kMaxTaskTile;
  index_t expand_chunk = kExpandChunk;  // min(tile, kExpandChunk)
  // The neighbours of vertex v at padded[(v << padded_shift) + s], -1 in empty slots
  // (graphs of degree at most 8, RcmGpuOptions::padded_rows); nullptr: none.
  const index_t* padded = nullptr;
  int padded_shift = 0;
};

// A merge sort over the kThreads threads of one task: CUB's block merge sort with the task's
// barrier (a __syncthreads() would wait for threads outside the task).
template <class Ctx>
class TaskMergeSort
    : public cub::BlockMergeSortStrategy<SortKey, cub::NullType, kThreads, kItems, TaskMergeSort<Ctx>> {
  using Base = cub::BlockMergeSortStrategy<SortKey, cub::NullType, kThreads, kItems, TaskMergeSort<Ctx>>;

 public:
  __device__ TaskMergeSort(typename Base::TempStorage& storage, const Ctx& ctx)
      : Base(storage, static_cast<unsigned>(ctx.rank())), ctx_(&ctx) {}
  __device__ void SyncImplementation() const { ctx_->sync(); }

 private:
  const Ctx* ctx_;
};

using SortStorage = cub::BlockMergeSort<SortKey, kThreads, kItems>::TempStorage;  // same layout

struct ExpandShared {
  index_t vertex[kMaxTaskTile];  // the positions' vertices
  index_t first[kMaxTaskTile];   // their row starts
  index_t offset[kMaxTaskTile];  // exclusive scan of their row lengths
  index_t warp_total[kWarps];
};

struct CountShared {
  index_t offset[kMaxTaskTile + 1];  // children per parent, then their first position
  uint2 child[kMaxTaskTile];         // (degree, vertex) in parent order
  int largest;                       // most children of one parent
};

union TaskShared {
  ExpandShared expand;
  CountShared count;
  alignas(16) unsigned char sort[sizeof(SortStorage)];
};

// A Narrow task keeps the level it expands and the next one in shared memory, so that a
// level costs four steps of global accesses (row bounds, columns, claim words, claims),
// each issued at once, and a few barriers; the queue in global memory only receives the
// order.
struct NarrowShared {
  index_t vertex[kMaxTaskTile];      // the level's vertices: position begin + j at j
  index_t first[kMaxTaskTile];       // their row starts
  index_t offset[kMaxTaskTile + 1];  // their row lengths, then the exclusive scan of them
  index_t next[kMaxTaskTile];        // the next level's vertices, in the order claimed
  union {
    index_t owner[kPassEdges];  // edge of the current pass -> position j of its row
    CountShared count;          // sort_next
  };
  index_t warp_total[kWarps];
  index_t claimed;  // vertices of the next level so far
  // expand_padded's counts, by level modulo 3: level L counts in [L % 3] and clears
  // [(L + 1) % 3] for level L + 1. That counter last held level L - 2's count, which every
  // thread read right after level L - 2's barrier, before it reached level L - 1's; so one
  // barrier per level suffices.
  index_t claimed_by_level[3];
  bool stop;  // ctx.aborted_together's copy of the abort flag, every 64 levels
};

// A long BFS claims in a bitmap of visited vertices in the Narrow task's shared memory
// instead of the global claim words: an atomic OR per edge, all of a thread's at once,
// where the global path takes two dependent round trips (the claim word's load, then the
// exchange). In an undirected graph a neighbour of level L lies in level L-1, L or L+1, so
// the bitmap needs to be right only for those: it is switched on after kBitmapAfterLevels
// levels of a task (so that a small component does not pay for clearing it) with the bits
// of levels L-1 and L, and every vertex claimed in it is stamped in global memory too
// (stores nothing waits for), where Expand tasks and later tasks look. Graphs of more than
// kBitmapBits vertices claim in global memory throughout.
//
// The bitmap is 128 KB, and a megakernel's blocks all get the largest task's shared
// memory, which leaves every task of the program about 60 KB of L1 instead of about
// 190 KB. With the bitmap in every BFS (H200, session 34), the 2D Poisson search was 15%
// faster, but the 3D one 8% slower (in its runs with a Rank task beside the BFS; Rank
// reads wide levels from global memory) and the random graph's 8% (wide levels, Expand
// tasks). So the bitmap is a program of its own (Narrow<true>), which the engine takes
// for a BFS only where the search is deep (TaskEngine::bfs).
constexpr int kBitmapWords = 1 << 15;
constexpr index_t kBitmapBits = index_t{32} * kBitmapWords;  // 2^20 vertices: 128 KB
constexpr int kBitmapAfterLevels = 16;
constexpr index_t kBitmapLevelWidth = kMaxTaskTile / 2;  // see TaskEngine::bfs

union NarrowTaskShared {
  NarrowShared narrow;
  TaskShared other;  // the merge sort (Cuthill–McKee), when a parent has too many children
};

struct NarrowBitmapShared {
  NarrowTaskShared u;
  unsigned visited[kBitmapWords];  // BFS: bit v set = v reached (levels L-1 .. L+1 exact)
};

__device__ void set_visited(unsigned* visited, index_t v) { atomicOr(visited + (v >> 5), 1u << (v & 31)); }

// Exclusive prefix sum of one value per thread over the task; `total` gets the sum.
template <class Ctx>
__device__ index_t task_exclusive_sum(const Ctx& ctx, index_t* warp_total, index_t value, index_t& total) {
  const auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  const int w = ctx.rank() / 32;
  const index_t inclusive = cg::inclusive_scan(warp, value);
  if (warp.thread_rank() == 31) warp_total[w] = inclusive;
  ctx.sync();
  index_t before = 0;
  total = 0;
  for (int i = 0; i < kWarps; ++i) {
    before += i < w ? warp_total[i] : 0;
    total += warp_total[i];
  }
  return before + inclusive - value;
}

// (degree, vertex) pairs: a sorts before b among siblings.
__device__ bool sorts_before(uint2 a, uint2 b) { return a.x < b.x || (a.x == b.x && a.y < b.y); }

// Appends v[j] where take[j], one atomic per warp. All 32 lanes call it.
__device__ void append(const TaskEnv& e, const bool (&take)[kEdgeBatch], const index_t (&v)[kEdgeBatch]) {
  unsigned mask[kEdgeBatch];
  int count = 0;
#pragma unroll
  for (int j = 0; j < kEdgeBatch; ++j) {
    mask[j] = __ballot_sync(0xffffffffu, take[j]);
    count += __popc(mask[j]);
  }
  if (count == 0) return;
  const auto lane = static_cast<unsigned>(threadIdx.x % 32);
  index_t base = 0;
  if (lane == 0) base = device_ref<index_t>(e.state->tail).fetch_add(count, cuda::memory_order_relaxed);
  base = __shfl_sync(0xffffffffu, base, 0);
#pragma unroll
  for (int j = 0; j < kEdgeBatch; ++j) {
    if (take[j]) e.queue[base + __popc(mask[j] & ((1u << lane) - 1))] = v[j];
    base += __popc(mask[j]);
  }
}

// v[j] is reached from the vertex at position[j] (skipped where position[j] < 0): sets
// take[j] for the one claim that adds v[j] to the next level (see the file comment and
// rcm_gpu.cu). All loads first, then all atomics, then the results: no instruction waits
// for a memory access before the next one is issued.
__device__ void claim(const TaskEnv& e, const index_t (&v)[kEdgeBatch], const index_t (&position)[kEdgeBatch],
                      bool (&take)[kEdgeBatch]) {
  unsigned* flag[kEdgeBatch];
  unsigned seen[kEdgeBatch];
#pragma unroll
  for (int j = 0; j < kEdgeBatch; ++j) {
    flag[j] = e.bfs ? &e.mark[v[j]] : &e.parent[v[j]];
    seen[j] = device_ref<unsigned>(*flag[j]).load(cuda::memory_order_relaxed);  // v[j] is a vertex even if unused
  }
  bool need[kEdgeBatch];
  unsigned old[kEdgeBatch];
#pragma unroll
  for (int j = 0; j < kEdgeBatch; ++j) {
    const auto pos = static_cast<unsigned>(position[j]);
    need[j] = position[j] >= 0 && (e.bfs ? seen[j] != e.stamp : seen[j] > pos);
    old[j] = 0;
    if (need[j])
      old[j] = e.bfs ? device_ref<unsigned>(*flag[j]).exchange(e.stamp, cuda::memory_order_relaxed)
                     : device_ref<unsigned>(*flag[j]).fetch_min(pos, cuda::memory_order_relaxed);
  }
#pragma unroll
  for (int j = 0; j < kEdgeBatch; ++j) take[j] = need[j] && (e.bfs ? old[j] != e.stamp : old[j] == kUnclaimed);
}

// Expands the positions [a, b) (at most kMaxTaskTile) of the queue: every unclaimed
// neighbour goes to the next level. Edge-balanced: a round gives each thread kEdgeBatch
// consecutive edges of the positions' concatenated rows.
template <class Ctx>
__device__ void expand(const Ctx& ctx, ExpandShared& sh, const TaskEnv& e, index_t a, index_t b) {
  const int r = ctx.rank();
  index_t length[kItems];
  index_t sum = 0;
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const int j = r * kItems + i;
    length[i] = 0;
    if (a + j < b) {
      const index_t u = e.queue[a + j];
      const index_t first = e.row_ptr[u];
      length[i] = e.row_ptr[u + 1] - first;
      sh.vertex[j] = u;
      sh.first[j] = first;
    }
    sum += length[i];
  }
  index_t total = 0;
  index_t run = task_exclusive_sum(ctx, sh.warp_total, sum, total);
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    sh.offset[r * kItems + i] = run;
    run += length[i];
  }
  ctx.sync();
  const int count = static_cast<int>(b - a);
  for (index_t round = 0; round < total; round += kThreads * kEdgeBatch) {  // the same trip count in every thread
    // Thread r takes the consecutive edges k0 .. k0 + kEdgeBatch - 1: one binary search
    // finds the position of k0's row, and the next edges step forward from it (every row
    // in a level has an entry, so each step moves at most one position).
    const index_t k0 = round + r * kEdgeBatch;
    int lo = 0;  // the last position whose row starts at or before edge k0
#pragma unroll 1  // rolled: smaller code measured faster in the megakernel
    for (int step = kMaxTaskTile / 2; step > 0; step /= 2)
      if (lo + step < count && sh.offset[lo + step] <= k0) lo += step;
    int at[kEdgeBatch];
    index_t edge[kEdgeBatch];
#pragma unroll
    for (int j = 0; j < kEdgeBatch; ++j) {
      const index_t k = k0 + j;
      while (lo + 1 < count && sh.offset[lo + 1] <= k) ++lo;
      at[j] = k < total ? lo : -1;
      edge[j] = sh.first[lo] + (k - sh.offset[lo]);
    }
    index_t v[kEdgeBatch], position[kEdgeBatch];
#pragma unroll
    for (int j = 0; j < kEdgeBatch; ++j) v[j] = e.col[at[j] >= 0 ? edge[j] : 0];  // unguarded (see expand_level)
#pragma unroll
    for (int j = 0; j < kEdgeBatch; ++j)  // self-loops are not edges
      position[j] = at[j] >= 0 && v[j] != sh.vertex[at[j]] ? a + at[j] : -1;
    bool take[kEdgeBatch];
    claim(e, v, position, take);
    append(e, take, v);
  }
}

// Sorts queue[first, first + count) (count <= tile <= kMaxTaskTile), the children of the
// level starting at parent_begin, by (parent position, degree, index). Writes the sorted
// vertices back into the queue, or the sorted keys to `out` when it is given.
template <class Ctx>
__device__ void sort_level(const Ctx& ctx, TaskShared& sh, const TaskEnv& e, index_t parent_begin, index_t first,
                           index_t count, SortKey* out) {
  const int r = ctx.rank();
  SortKey keys[kItems];
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const index_t j = r * kItems + i;
    keys[i] = kMaxKey;
    if (j < count) {
      const index_t v = e.queue[first + j];
      // From L2: a Narrow task may hold a line of parent[] in L1 from before its claims.
      const unsigned parent = device_ref<unsigned>(e.parent[v]).load(cuda::memory_order_relaxed);
      keys[i] = {static_cast<std::uint64_t>(parent - static_cast<unsigned>(parent_begin)) << 32 |
                     static_cast<std::uint32_t>(e.degree[v]),
                 static_cast<std::uint32_t>(v)};
    }
  }
  static_assert(sizeof(typename TaskMergeSort<Ctx>::TempStorage) == sizeof(SortStorage));
  TaskMergeSort<Ctx>(*reinterpret_cast<typename TaskMergeSort<Ctx>::TempStorage*>(sh.sort), ctx).Sort(keys, KeyLess{});
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const index_t j = r * kItems + i;
    if (j >= count) continue;
    if (out != nullptr) out[j] = keys[i];
    else e.queue[first + j] = static_cast<index_t>(keys[i].vertex);
  }
  ctx.sync();  // the shared storage is reused next
}

// Narrow tasks: the level queue[begin, begin + w) is staged in shared memory — sh.vertex,
// sh.first and, after scan_level, sh.offset — and expanded into sh.next.

// Stages the level whose vertices are sh.next[0, w): vertices, row starts, and row
// lengths in sh.offset (scan_level turns them into offsets). The row bounds of all of
// the level's vertices are loaded at once.
template <class Ctx>
__device__ void stage_level(const Ctx& ctx, NarrowShared& sh, const TaskEnv& e, index_t w) {
  const int r = ctx.rank();
  index_t v[kItems], first[kItems], last[kItems];
#pragma unroll
  for (int i = 0; i < kItems; ++i) v[i] = r + i * kThreads < w ? sh.next[r + i * kThreads] : -1;
#pragma unroll
  for (int i = 0; i < kItems; ++i) {  // all loads before any use (see expand_level)
    first[i] = __ldg(e.row_ptr + (v[i] < 0 ? 0 : v[i]));  // unpredicated
    last[i] = __ldg(e.row_ptr + (v[i] < 0 ? 0 : v[i]) + 1);
  }
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    if (v[i] < 0) continue;
    const index_t j = r + i * kThreads;
    sh.vertex[j] = v[i];
    sh.first[j] = first[i];
    sh.offset[j] = last[i] - first[i];
  }
}

// Turns the staged row lengths of the level's w positions into exclusive offsets
// (sh.offset[w] = the level's edges) and returns the edge count. Starts and ends with a
// barrier.
template <class Ctx>
__device__ index_t scan_level(const Ctx& ctx, NarrowShared& sh, index_t w) {
  const int r = ctx.rank();
  ctx.sync();  // the lengths are staged
  index_t length[kItems];
  index_t sum = 0;
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const index_t j = r * kItems + i;
    length[i] = j < w ? sh.offset[j] : 0;
    sum += length[i];
  }
  index_t total = 0;
  index_t run = task_exclusive_sum(ctx, sh.warp_total, sum, total);
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const index_t j = r * kItems + i;
    if (j < w) sh.offset[j] = run;
    run += length[i];
  }
  if (r == 0) sh.offset[w] = total;
  ctx.sync();
  return total;
}

// sh.owner[k] = the position whose row holds edge pass_begin + k, for the edges
// [pass_begin, pass_end) of the staged level: each position writes its own edges' entries
// (no binary search per edge; the rows of a mesh are short, and a hub's thread writes at
// most kPassEdges entries per pass). Ends with a barrier.
template <class Ctx>
__device__ void find_owners(const Ctx& ctx, NarrowShared& sh, index_t w, index_t pass_begin, index_t pass_end) {
  const int r = ctx.rank();
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const index_t j = r + i * kThreads;
    if (j >= w) continue;
    const index_t a = std::max(sh.offset[j], pass_begin), b = std::min(sh.offset[j + 1], pass_end);
    for (index_t k = a; k < b; ++k) sh.owner[k - pass_begin] = j;
  }
  ctx.sync();
}

// Writes the next level from sh.next into the queue from position `first` on (what
// expand_level kept in shared memory; it wrote the rest there itself), coalesced.
template <class Ctx>
__device__ void publish_next(const Ctx& ctx, const NarrowShared& sh, const TaskEnv& e, index_t first, index_t count) {
  const index_t kept = count < kMaxTaskTile ? count : kMaxTaskTile;
  for (index_t j = ctx.rank(); j < kept; j += kThreads) e.queue[first + j] = sh.next[j];
}

// Claims the vertices v[i] >= 0 in the bitmap, all of a thread's at once: take[i] for
// those this thread reached first.
__device__ void claim_in_bitmap(unsigned* visited, const index_t (&v)[kPassItems], bool (&take)[kPassItems]) {
  unsigned old[kPassItems];
#pragma unroll
  for (int i = 0; i < kPassItems; ++i) old[i] = v[i] >= 0 ? atomicOr(visited + (v[i] >> 5), 1u << (v[i] & 31)) : ~0u;
#pragma unroll
  for (int i = 0; i < kPassItems; ++i) take[i] = (old[i] & (1u << (v[i] & 31))) == 0;
}

// Appends the v[i] with take[i] to the next level, counted in *claimed: its first
// kMaxTaskTile vertices into next[], the rest into the queue after position `end`.
// Publish (a BFS level claimed in the bitmap): every vertex also goes straight into the
// queue and gets the search's stamp (stores nothing waits for), so that nothing is left to
// copy after the level's barrier. One shared atomic per warp reserves the warp's slots;
// all 32 lanes call it.
template <bool Publish = false>
__device__ void append_next(index_t* next, const TaskEnv& e, index_t end, index_t* claimed,
                            const bool (&take)[kPassItems], const index_t (&v)[kPassItems]) {
  const auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  index_t taken = 0;
#pragma unroll
  for (int i = 0; i < kPassItems; ++i) taken += take[i] ? 1 : 0;
  const index_t inclusive = cg::inclusive_scan(warp, taken);
  index_t base = 0;
  if (warp.thread_rank() == 31 && inclusive > 0) base = atomicAdd(claimed, inclusive);
  base = warp.shfl(base, 31) + inclusive - taken;
#pragma unroll
  for (int i = 0; i < kPassItems; ++i) {
    if (!take[i]) continue;
    if (base < kMaxTaskTile) next[base] = v[i];
    if (Publish || base >= kMaxTaskTile) e.queue[end + base] = v[i];  // published, or beyond shared memory
    if (Publish) device_ref<unsigned>(e.mark[v[i]]).store(e.stamp, cuda::memory_order_relaxed);
    ++base;
  }
}

// Expands the staged level (positions begin .. begin + w - 1, `edges` edges): every
// unclaimed neighbour goes to the next level: its first kMaxTaskTile vertices into sh.next
// (publish_next copies them to the queue), the rest into the queue from position
// begin + w + kMaxTaskTile on. Returns the size of the next level. Each pass issues the
// column loads of up to kPassEdges edges at once, then the loads of their claim words,
// then the claims of the vertices not claimed yet (those of the `cub` variant). With
// `visited` (a BFS of the Bitmap program), the claims are atomic ORs on that bitmap
// instead, one per edge, all issued at once. Ends with a barrier.
template <bool Bitmap, class Ctx>
__device__ index_t expand_level(const Ctx& ctx, NarrowShared& sh, const TaskEnv& e, index_t begin, index_t w,
                                index_t edges, unsigned* visited) {
  const int r = ctx.rank();
  const index_t end = begin + w;
  if (edges == 0) return 0;
  if (r == 0) sh.claimed = 0;  // ordered before the appends by find_owners' barriers
  for (index_t pass_begin = 0; pass_begin < edges; pass_begin += kPassEdges) {
    const index_t pass_end = std::min(edges, pass_begin + kPassEdges);
    find_owners(ctx, sh, w, pass_begin, pass_end);
    // Every load and claim of a step is issued before any result is used, and unguarded
    // where it can be (an empty item reads entry 0): with the use next to a guarded load,
    // the compiler made each load wait for the one before (on an H100, 8 edges a thread
    // took 4 µs per level instead of one memory latency).
    int at[kPassItems];
    index_t edge[kPassItems];
#pragma unroll
    for (int i = 0; i < kPassItems; ++i) {
      const index_t k = pass_begin + r + i * kThreads;
      at[i] = k < pass_end ? sh.owner[k - pass_begin] : -1;
      const int j = at[i] < 0 ? 0 : at[i];
      edge[i] = sh.first[j] + (k - sh.offset[j]);
    }
    index_t v[kPassItems];
#pragma unroll
    for (int i = 0; i < kPassItems; ++i) v[i] = __ldg(e.col + (at[i] < 0 ? 0 : edge[i]));  // unpredicated
    bool take[kPassItems];
    if (Bitmap && visited != nullptr) {
#pragma unroll
      for (int i = 0; i < kPassItems; ++i) v[i] = at[i] >= 0 ? v[i] : -1;
      claim_in_bitmap(visited, v, take);
    } else {
      // A plain load first filters out the vertices claimed already (most edges of a mesh
      // lead back or sideways, and a self-loop leads to the level itself): uncoalesced
      // atomics are what one multiprocessor issues slowest.
      unsigned* flag = e.bfs ? e.mark : e.parent;
      unsigned seen[kPassItems];
#pragma unroll
      for (int i = 0; i < kPassItems; ++i) seen[i] = device_ref<unsigned>(flag[v[i]]).load(cuda::memory_order_relaxed);
      unsigned old[kPassItems];
#pragma unroll
      for (int i = 0; i < kPassItems; ++i) {
        old[i] = 0;
        if (at[i] < 0 || (e.bfs ? seen[i] == e.stamp : seen[i] <= static_cast<unsigned>(begin + at[i]))) {
          at[i] = -1;
          continue;
        }
        if (e.bfs) old[i] = device_ref<unsigned>(e.mark[v[i]]).exchange(e.stamp, cuda::memory_order_relaxed);
        else
          old[i] = device_ref<unsigned>(e.parent[v[i]])
                       .fetch_min(static_cast<unsigned>(begin + at[i]), cuda::memory_order_relaxed);
      }
#pragma unroll
      for (int i = 0; i < kPassItems; ++i) take[i] = at[i] >= 0 && (e.bfs ? old[i] != e.stamp : old[i] == kUnclaimed);
    }
    append_next(sh.next, e, end, &sh.claimed, take, v);
    ctx.sync();  // the claims are done and sh.owner is free again
  }
  return sh.claimed;
}

// A BFS level claimed in the bitmap from the padded copy of the graph (e.padded): the
// level's vertices level[0, w) (queue positions begin .. begin + w - 1) has w << shift slots; each
// pass loads the neighbours of up to kPassEdges slots at once, one load each with nothing
// before it (no row bounds, no scan of row lengths, no owner table), claims them in the
// bitmap and appends the new ones to next[] and the queue (append_next<true>). The caller
// alternates level[] and next[] between sh.vertex and sh.next, so the only barrier is the
// one at the end: the level was written before the last one, and next[] was last read
// before it. `step`: the level's number (see NarrowShared::claimed_by_level). Returns the
// size of the next level. Against two barriers a level and a copy of the next level after
// the second (H200, session 36): the 2D Poisson search 14.4 against 14.7 ms.
template <class Ctx>
__device__ index_t expand_padded(const Ctx& ctx, NarrowShared& sh, const TaskEnv& e, index_t begin, index_t w,
                                 unsigned* visited, const index_t* level, index_t* next, index_t step) {
  const int r = ctx.rank();
  const index_t end = begin + w;
  const int shift = e.padded_shift;
  const index_t slots = w << shift;
  index_t* claimed = &sh.claimed_by_level[step % 3];
  if (r == 0) sh.claimed_by_level[(step + 1) % 3] = 0;  // the next level's (see claimed_by_level)
  for (index_t pass_begin = 0; pass_begin < slots; pass_begin += kPassEdges) {
    index_t v[kPassItems];
#pragma unroll
    for (int i = 0; i < kPassItems; ++i) {  // unpredicated: slot 0 of position 0 stands in (see expand_level)
      const index_t k = pass_begin + r + i * kThreads;
      const index_t u = level[k < slots ? k >> shift : 0];
      v[i] = __ldg(e.padded + ((static_cast<std::size_t>(u) << shift) | static_cast<std::size_t>(k & ((1 << shift) - 1))));
    }
#pragma unroll
    for (int i = 0; i < kPassItems; ++i) v[i] = pass_begin + r + i * kThreads < slots ? v[i] : -1;
    bool take[kPassItems];
    claim_in_bitmap(visited, v, take);
    append_next<true>(next, e, end, claimed, take, v);
  }
  ctx.sync();  // the claims and appends of the level are done
  return *claimed;
}

// After a level claimed in the bitmap without the padded rows (expand_padded stamps as it
// appends): the next level's vertices (sh.next, and the queue from position
// first + kMaxTaskTile on) get the search's stamp in global memory, where Expand tasks and
// later Narrow tasks look for it. Nothing waits for these stores.
template <class Ctx>
__device__ void stamp_next(const Ctx& ctx, const NarrowShared& sh, const TaskEnv& e, index_t first, index_t count) {
  for (index_t j = ctx.rank(); j < count; j += kThreads) {
    const index_t v = j < kMaxTaskTile ? sh.next[j] : e.queue[first + j];
    device_ref<unsigned>(e.mark[v]).store(e.stamp, cuda::memory_order_relaxed);
  }
}

// Switches a BFS task to the bitmap before it expands level L (the staged sh.vertex[0, w),
// queue positions begin .. begin + w - 1): clears the bitmap's first `vertices` bits and
// sets those of levels L-1 (queue[prev_begin, begin)) and L. Ends with a barrier.
template <class Ctx>
__device__ void start_bitmap(const Ctx& ctx, unsigned* visited, NarrowShared& sh, const TaskEnv& e,
                             index_t prev_begin, index_t begin, index_t w) {
  const int words = (e.vertices + 31) / 32;
  for (int k = ctx.rank(); k < words; k += kThreads) visited[k] = 0;
  if (ctx.rank() == 0) sh.claimed_by_level[0] = sh.claimed_by_level[1] = sh.claimed_by_level[2] = 0;
  ctx.sync();
  for (index_t p = prev_begin + ctx.rank(); p < begin; p += kThreads) set_visited(visited, e.queue[p]);
  for (index_t j = ctx.rank(); j < w; j += kThreads) set_visited(visited, sh.vertex[j]);
  ctx.sync();
}

// Sorts the next level sh.next[0, count), the children of the staged level (positions
// parent_begin .. parent_begin + w - 1), by (parent position, degree, index) without a
// comparison sort: a counting sort by parent, then each child ranks itself among its
// siblings. Stages the sorted level (vertex, row start, row length: ready for
// scan_level) and writes it to the queue from position `first` on. Returns false, having
// written nothing, when a parent has more than kMaxSiblings children; the caller then
// merge-sorts.
template <class Ctx>
__device__ bool sort_next(const Ctx& ctx, NarrowShared& sh, const TaskEnv& e, index_t parent_begin, index_t w,
                          index_t first, index_t count) {
  const int r = ctx.rank();
  CountShared& cs = sh.count;
  for (index_t p = r; p <= w; p += kThreads) cs.offset[p] = 0;
  if (r == 0) cs.largest = 0;
  ctx.sync();
  index_t v[kItems], parent[kItems], slot[kItems], row[kItems], length[kItems];
  uint2 child[kItems];
#pragma unroll
  for (int i = 0; i < kItems; ++i) v[i] = r + i * kThreads < count ? sh.next[r + i * kThreads] : -1;
  // All loads before any use (see expand_level). The smallest claim won: parent[] is read
  // after every claim of the level (the barrier that ended expand_level), from L2.
#pragma unroll
  for (int i = 0; i < kItems; ++i) {  // unpredicated: vertex 0 stands in for an empty item
    const index_t u = v[i] < 0 ? 0 : v[i];
    parent[i] = static_cast<index_t>(device_ref<unsigned>(e.parent[u]).load(cuda::memory_order_relaxed));
    child[i] = make_uint2(static_cast<unsigned>(__ldg(e.degree + u)), static_cast<unsigned>(v[i]));
    row[i] = __ldg(e.row_ptr + u);
    length[i] = __ldg(e.row_ptr + u + 1);
  }
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    if (v[i] < 0) continue;
    parent[i] -= parent_begin;
    length[i] -= row[i];
    slot[i] = atomicAdd(&cs.offset[parent[i]], 1);
  }
  ctx.sync();
  // Exclusive scan of the counts, kItems consecutive parents per thread.
  index_t sum = 0, most = 0;
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const index_t p = r * kItems + i;
    const index_t c = p < w ? cs.offset[p] : 0;
    sum += c;
    most = std::max(most, c);
  }
  atomicMax(&cs.largest, most);
  index_t total = 0;
  index_t run = task_exclusive_sum(ctx, sh.warp_total, sum, total);
  ctx.sync();  // every thread has read its counts and the warp totals
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const index_t p = r * kItems + i;
    if (p >= w) break;
    const index_t c = cs.offset[p];
    cs.offset[p] = run;
    run += c;
  }
  if (r == 0) cs.offset[w] = count;
  ctx.sync();
  if (cs.largest > kMaxSiblings) {
    ctx.sync();  // everyone has read `largest` before the caller reuses the storage
    return false;
  }
#pragma unroll
  for (int i = 0; i < kItems; ++i)
    if (r + i * kThreads < count) cs.child[cs.offset[parent[i]] + slot[i]] = child[i];
  ctx.sync();
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    if (r + i * kThreads >= count) continue;
    const index_t begin = cs.offset[parent[i]], end = cs.offset[parent[i] + 1];
    index_t rank = 0;
    for (index_t q = begin; q < end; ++q) {
      const uint2 o = cs.child[q];
      rank += sorts_before(o, child[i]);
    }
    const index_t at = begin + rank;
    sh.vertex[at] = static_cast<index_t>(child[i].y);
    sh.first[at] = row[i];
    sh.offset[at] = length[i];
    e.queue[first + at] = static_cast<index_t>(child[i].y);
  }
  return true;
}

// The search is over: queue[begin, end) was its last level. A BFS also finds the
// minimum-degree vertex of that level (ties: the smallest index).
template <class Ctx>
__device__ void finish(const Ctx& ctx, const TaskEnv& e, index_t begin, index_t end, index_t levels) {
  if (ctx.rank() == 0) {
    e.state->begin = begin;
    e.state->end = end;
    e.state->levels = levels;
  }
  if (!e.bfs) return;
  unsigned long long best = ~0ull;
  for (index_t p = begin + ctx.rank(); p < end; p += kThreads) {
    const index_t v = e.queue[p];
    best = std::min(best, static_cast<unsigned long long>(static_cast<unsigned>(e.degree[v])) << 32 |
                              static_cast<unsigned>(v));
  }
  const auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  best = cg::reduce(warp, best, cg::less<unsigned long long>());
  if (warp.thread_rank() == 0)
    device_ref<unsigned long long>(e.state->best).fetch_min(best, cuda::memory_order_relaxed);
}

__device__ index_t chunks(index_t count, index_t tile) { return (count + tile - 1) / tile; }

template <bool Bitmap>
struct Narrow;
struct Expand;
struct SortChunk;
struct Plan;
template <int Parity>
struct Merge;

// The Narrow type of program P (RcmProgram<true> or <false>): for code that serves both,
// on the device (Ctx::Program) and on the host (Runtime::Program).
template <class P>
using NarrowOf = Narrow<P::template contains<Narrow<true>>>;

// Records the current step in the state (one thread) and hands the search to tasks:
// after the level queue[begin, end) was expanded into queue[end, tail), a large next level
// goes to SortChunk; after a level is complete, a wide one goes to Expand tasks, a narrow
// one to a Narrow task.
template <class Ctx>
__device__ void delegate_sort(const Ctx& ctx, const TaskEnv& e, index_t begin, index_t end, index_t tail,
                              index_t levels) {
  if (ctx.rank() == 0) *e.state = LevelState{begin, end, tail, levels, e.state->best};
  ctx.sync();  // the state is written before any task that reads it is queued
  ctx.template enqueue_each<SortChunk>(chunks(tail - end, e.tile), [](index_t c) { return c; });
}

template <class Ctx>
__device__ void start_level(const Ctx& ctx, const TaskEnv& e, index_t begin, index_t end, index_t levels) {
  if (ctx.rank() == 0) {
    *e.state = LevelState{begin, end, end, levels, e.state->best};
    e.level_begin[levels] = end;
  }
  ctx.sync();  // the state is written before any task that reads it is queued
  if (end - begin <= e.tile) {
    if (ctx.rank() == 0) ctx.template enqueue<NarrowOf<typename Ctx::Program>>(-1);
    return;
  }
  const index_t n = chunks(end - begin, e.expand_chunk);
  if (ctx.rank() == 0) ctx.template enqueue_after<Plan>(*e.plan, static_cast<int>(n), false);
  ctx.template enqueue_each<Expand>(n, [](index_t c) { return c; });
}

// Item: the root of a new search, or -1 to go on from the state (after a wide level, or
// after kLevelsPerTask levels of a predecessor). Bitmap: a BFS claims in a bitmap in
// shared memory once it is kBitmapAfterLevels levels deep (see NarrowBitmapShared).
template <bool Bitmap>
struct Narrow {
  using Item = index_t;
  static constexpr int threads = kThreads;
  static constexpr int shared_bytes = Bitmap ? sizeof(NarrowBitmapShared) : sizeof(NarrowTaskShared);
  template <class Ctx>
  __device__ static void execute(const Item& root, Ctx& ctx) {
    const TaskEnv& e = ctx.env();
    NarrowTaskShared& u = *ctx.template shared_as<NarrowTaskShared>();  // first in NarrowBitmapShared
    NarrowShared& sh = u.narrow;
    index_t begin = 0, end = 1, levels = 1;
    if (root >= 0) {
      if (ctx.rank() == 0) {
        e.queue[0] = root;
        if (e.bfs) e.mark[root] = e.stamp;
        else e.parent[root] = 0;
        *e.state = LevelState{0, 1, 1, 1, ~0ull};
        e.level_begin[0] = 0;
        sh.next[0] = root;
      }
    } else {
      begin = e.state->begin;
      end = e.state->end;
      levels = e.state->levels;
      for (index_t j = ctx.rank(); j < end - begin; j += kThreads) sh.next[j] = e.queue[begin + j];
    }
    ctx.sync();
    stage_level(ctx, sh, e, end - begin);
    unsigned* visited = nullptr;  // Bitmap, BFS: the bitmap, once it is switched on
    index_t* level_of = sh.vertex;  // padded levels: the level's vertices, and the next one's
    index_t* next_of = sh.next;
    for (int step = 0; step < kLevelsPerTask; ++step) {
      if (step % 64 == 0 && ctx.aborted_together(sh.stop)) return;
      const index_t w = end - begin;
      if (ctx.rank() == 0) e.level_begin[levels] = end;  // for Rank (the level structure of this search)
      if (Bitmap && e.bfs && visited == nullptr && step == kBitmapAfterLevels && e.vertices <= kBitmapBits) {
        ctx.sync();  // sh.vertex is staged
        visited = ctx.template shared_as<NarrowBitmapShared>()->visited;
        start_bitmap(ctx, visited, sh, e, e.level_begin[levels - 2], begin, w);
      }
      if (Bitmap && visited != nullptr && e.padded != nullptr) {
        // With the bitmap on and the padded copy there, a level needs no row bounds, and
        // its next level is in the queue and stamped once the level's one barrier is passed.
        const index_t count = expand_padded(ctx, sh, e, begin, w, visited, level_of, next_of, levels);
        if (count == 0) return finish(ctx, e, begin, end, levels);
        if (count > e.tile) return start_level(ctx, e, end, end + count, levels + 1);
        std::swap(level_of, next_of);
        begin = end;
        end += count;
        ++levels;
        continue;
      }
      const index_t count = expand_level<Bitmap>(ctx, sh, e, begin, w, scan_level(ctx, sh, w), visited);
      if (count == 0) return finish(ctx, e, begin, end, levels);
      const index_t tail = end + count;
      // A BFS level goes to the queue as it is; a Cuthill–McKee level once it is sorted.
      if (e.bfs || count > e.tile) publish_next(ctx, sh, e, end, count);
      if (Bitmap && visited != nullptr) stamp_next(ctx, sh, e, end, count);
      if (count > e.tile) {  // tasks across the GPU go on from the queue
        if (!e.bfs) return delegate_sort(ctx, e, begin, end, tail, levels);
        return start_level(ctx, e, end, tail, levels + 1);
      }
      if (e.bfs) {
        stage_level(ctx, sh, e, count);
      } else if (!sort_next(ctx, sh, e, begin, w, end, count)) {
        publish_next(ctx, sh, e, end, count);
        ctx.sync();
        sort_level(ctx, u.other, e, begin, end, count, nullptr);  // ends with a barrier
        for (index_t j = ctx.rank(); j < count; j += kThreads) sh.next[j] = e.queue[end + j];
        ctx.sync();
        stage_level(ctx, sh, e, count);
      }
      begin = end;
      end = tail;
      ++levels;
    }
    start_level(ctx, e, begin, end, levels);  // a successor goes on
  }
};

// Item: chunk c of the current (wide) level, positions begin + c*expand_chunk onwards.
struct Expand {
  using Item = index_t;
  static constexpr int threads = kThreads;
  static constexpr int shared_bytes = sizeof(ExpandShared);
  template <class Ctx>
  __device__ static void execute(const Item& c, Ctx& ctx) {
    const TaskEnv& e = ctx.env();
    const index_t a = e.state->begin + c * e.expand_chunk;
    expand(ctx, *ctx.template shared_as<ExpandShared>(), e, a, std::min(a + e.expand_chunk, e.state->end));
    ctx.sync();  // the whole task's appends are ordered before the resolve
    if (ctx.rank() == 0) ctx.resolve(*e.plan);
  }
};

// Item: false after an expansion by Expand tasks (released by the last of them); true
// after the merge passes sorted the next level.
struct Plan {
  using Item = bool;
  static constexpr int threads = kThreads;
  static constexpr int shared_bytes = sizeof(TaskShared);
  template <class Ctx>
  __device__ static void execute(const Item& sorted, Ctx& ctx) {
    const TaskEnv& e = ctx.env();
    const LevelState s = *e.state;
    ctx.sync();  // everyone has read the state before it is rewritten
    if (!sorted) {
      if (s.tail == s.end) return finish(ctx, e, s.begin, s.end, s.levels);
      if (!e.bfs) {
        if (s.tail - s.end > e.tile) return delegate_sort(ctx, e, s.begin, s.end, s.tail, s.levels);
        sort_level(ctx, *ctx.template shared_as<TaskShared>(), e, s.begin, s.end, s.tail - s.end, nullptr);
      }
    }
    start_level(ctx, e, s.end, s.tail, s.levels + 1);
  }
};

// Item: chunk c of the level queue[end, tail) to sort into a run of runs[0].
struct SortChunk {
  using Item = index_t;
  static constexpr int threads = kThreads;
  static constexpr int shared_bytes = sizeof(TaskShared);
  template <class Ctx>
  __device__ static void execute(const Item& c, Ctx& ctx) {
    const TaskEnv& e = ctx.env();
    const LevelState s = *e.state;
    const index_t count = s.tail - s.end;
    const index_t first = c * e.tile;
    sort_level(ctx, *ctx.template shared_as<TaskShared>(), e, s.begin, s.end + first,
               std::min(e.tile, count - first), e.runs[0] + first);
    if (c == 0)
      for (index_t t = ctx.rank(); t < chunks(count, e.tile); t += kThreads)
        ctx.template enqueue<Merge<0>>({t, 0});
  }
};

struct MergeItem {
  index_t tile;  // outputs tile*T .. tile*T + T - 1 (T = env tile)
  int pass;      // merges runs of T << pass keys from runs[pass & 1]
};

// One merge-path tile of a pass. Each thread finds where its outputs start by a binary
// search on the diagonal, then merges them sequentially; the pass that leaves one run
// writes vertices into the queue instead of keys.
template <int Parity>
struct Merge {
  using Item = MergeItem;
  static constexpr int threads = kThreads;
  static constexpr int shared_bytes = 0;
  template <class Ctx>
  __device__ static void execute(const Item& it, Ctx& ctx) {
    const TaskEnv& e = ctx.env();
    const LevelState s = *e.state;
    const std::int64_t m = s.tail - s.end;
    const std::int64_t width = std::int64_t{e.tile} << it.pass;
    const bool last = 2 * width >= m;
    const SortKey* src = e.runs[it.pass & 1];
    SortKey* dst = e.runs[(it.pass + 1) & 1];
    const std::int64_t out_begin = std::int64_t{it.tile} * e.tile;
    const std::int64_t pair = out_begin / (2 * width) * (2 * width);  // a tile never spans two pairs
    const std::int64_t na = std::min(width, m - pair);
    const std::int64_t nb = std::max<std::int64_t>(0, std::min(width, m - pair - na));
    const SortKey* a = src + pair;
    const SortKey* b = a + na;
    const std::int64_t per_thread = (e.tile + kThreads - 1) / kThreads;
    const std::int64_t d0 = out_begin - pair + ctx.rank() * per_thread;
    const std::int64_t d1 = std::min({d0 + per_thread, out_begin - pair + e.tile, na + nb});
    if (d0 < d1) {
      std::int64_t lo = std::max<std::int64_t>(0, d0 - nb), hi = std::min(d0, na);  // keys of a before output d0
      while (lo < hi) {
        const std::int64_t mid = (lo + hi) / 2;
        if (KeyLess{}(b[d0 - 1 - mid], a[mid])) hi = mid;
        else lo = mid + 1;
      }
      std::int64_t i = lo, j = d0 - lo;
      for (std::int64_t d = d0; d < d1; ++d) {
        const bool from_a = j >= nb || (i < na && !KeyLess{}(b[j], a[i]));
        const SortKey k = from_a ? a[i++] : b[j++];
        if (last) e.queue[s.end + pair + d] = static_cast<index_t>(k.vertex);
        else dst[pair + d] = k;
      }
    }
    if (it.tile != 0) return;
    if (last) {
      if (ctx.rank() == 0) ctx.template enqueue<Plan>(true);
      return;
    }
    for (index_t t = ctx.rank(); t < chunks(static_cast<index_t>(m), e.tile); t += kThreads)
      ctx.template enqueue<Merge<1 - Parity>>({t, it.pass + 1});
  }
};

// Cuthill–McKee from the levels of the last BFS (level_parents.cuh): level k+1 is ordered
// by (smallest rank of a parent in level k, degree, index), the order in which the serial
// search appends it. A Rank task walks the levels in order. Everything it reads from global
// memory is fixed before the search (parent lists, BFS order, degrees), so nothing waits
// for a claim. Ranks are kept by BFS-local index: level k's vertex queue[level_begin[k] +
// j] has rank rank[k & 1][j]. A level takes one of two paths:
// - fast (both levels at most kFastWidth and the tile wide, every child's smallest parent
//   with at most kRankedChildren children): each child takes its smallest parent rank m
//   and its place t among that parent's children and sets bit t of mask[m]; a scan of the
//   masks' population counts gives each parent rank its first position, and a child's
//   rank is that plus the bits below its own. Three barriers a level, and the next
//   level's parent lists are loaded into registers a level ahead.
// - general (any width up to kPairLevelWidth): the smallest parent ranks, then the
//   children of each parent counted, scanned, and each child ranked among its siblings by
//   comparing with them (or a merge sort where a parent has more than kMaxSiblings), as
//   sort_next does.
constexpr int kFastItems = 2;                            // children per thread in a fast level
constexpr index_t kFastWidth = kFastItems * kThreads;    // and parent ranks per thread in its scan
constexpr int kRanksPerWarp = kFastItems * 32;
constexpr int kNearParents = 3;  // a mesh vertex has 1-3 parents; more are read one by one

struct RankShared {
  // A copy of the environment's RankEnv and tile: every level reads them first, and in the
  // bitmap's program, whose blocks are left about 60 KB of L1, shared memory is nearer
  // than the parameter space (time-sliced 2D search 14.7-14.8 instead of 15.7-15.9 ms).
  RankEnv env;
  index_t tile;
  index_t rank[2][kMaxTaskTile];
  union {
    struct {
      alignas(16) unsigned mask[2][kFastWidth];  // by parent rank: bit t for each child; by level parity
      index_t first[kFastWidth];                 // by parent rank: first position within its warp's ranks
    } f;
    struct {
      unsigned minrank[kMaxTaskTile];   // next level: smallest rank of a parent
      index_t count[kMaxTaskTile + 1];  // children per parent, then their first position
      uint2 child[kMaxTaskTile];        // (degree, vertex) in parent order
    } c;
    // A level wider than the tile but at most 4 tiles: its smallest parent ranks
    // (written once per child; the rest is global).
    unsigned wide_minrank[4 * kMaxTaskTile];
    alignas(16) unsigned char sort[sizeof(SortStorage)];  // a parent with many children
  };
  index_t warp_total[kWarps];
  index_t largest;  // most children of one parent
  int slow[2];      // by level parity: a fast level found a child it cannot place
  bool stop;        // ctx.aborted_together's copy of the abort flag (rank_levels)
};
static_assert(sizeof(RankShared) <= sizeof(NarrowTaskShared), "Rank must not raise the program's shared memory");

// The vertices and degrees of positions first + base + r + i * kThreads of a level of
// `count` vertices (unguarded: past the end, the last vertex stands in), both loaded by
// position: neither waits for the other.
__device__ void load_children(const RankEnv& x, int r, index_t first, index_t count, index_t base,
                              index_t (&v)[kItems], unsigned (&d)[kItems]) {
#pragma unroll
  for (int i = 0; i < kItems; ++i) v[i] = __ldg(x.queue + first + std::min(base + r + i * kThreads, count - 1));
#pragma unroll
  for (int i = 0; i < kItems; ++i)
    d[i] = static_cast<unsigned>(__ldg(x.degree_at + first + std::min(base + r + i * kThreads, count - 1)));
}

// Thread r's children base + r + i * kThreads of a level: the bounds of their parent lists
// and their first parents (the last repeated where there are fewer; each child of a level
// after the first has one). Loaded in two steps, the bounds first.
template <int N>
struct ChildParents {
  index_t begin[N], end[N];
  std::uint32_t near[N][kNearParents];
};

// The bounds of positions first + base + r + i * kThreads of a level of `count` vertices
// (past the end, the last one stands in).
template <int N>
__device__ void load_bounds(const RankEnv& x, int r, index_t first, index_t count, index_t base, ChildParents<N>& c) {
#pragma unroll
  for (int i = 0; i < N; ++i) {
    const index_t q = first + std::min(base + r + i * kThreads, count - 1);
    c.begin[i] = __ldg(x.parent_begin + q);
    c.end[i] = __ldg(x.parent_begin + q + 1);
  }
}

template <int N>
__device__ void load_near(const RankEnv& x, ChildParents<N>& c) {
#pragma unroll
  for (int i = 0; i < N; ++i)
#pragma unroll
    for (int s = 0; s < kNearParents; ++s) c.near[i][s] = __ldg(x.parents + std::min(c.begin[i] + s, c.end[i] - 1));
}

// A child's smallest parent rank and its place among that parent's children (t of the
// entry, level_parents.cuh): over `near` (the first parents, the last repeated where there
// are fewer) and the entries [rest, end) after them.
__device__ void smallest_parent(const RankEnv& x, const index_t* prev, const std::uint32_t (&near)[kNearParents],
                                index_t rest, index_t end, unsigned& m, unsigned& t) {
  m = kUnclaimed;
  t = kUnranked;
#pragma unroll
  for (int s = 0; s < kNearParents; ++s) {
    const auto rank = static_cast<unsigned>(prev[near[s] & 0xffffu]);
    if (rank < m) {
      m = rank;
      t = near[s] >> 16;
    }
  }
  for (index_t q = rest; q < end; ++q) {
    const std::uint32_t entry = __ldg(x.parents + q);
    const auto rank = static_cast<unsigned>(prev[entry & 0xffffu]);
    if (rank < m) {
      m = rank;
      t = entry >> 16;
    }
  }
}

// rank_level's ordering of level k+1 = queue[b1, b1 + wn) once count[] holds each parent's
// first position: the children in parent order, then each ranks itself among its siblings
// by (degree, index) and takes its place. v, d: the first kMaxTaskTile children's vertices
// and degrees (load_children).
template <class Ctx>
__device__ void order_by_counts(const Ctx& ctx, const RankEnv& x, const unsigned* minrank, const index_t* count,
                                uint2* child, index_t* next, index_t b1, index_t wn, index_t (&v)[kItems],
                                unsigned (&d)[kItems]) {
  const int r = ctx.rank();
  for (index_t base = 0; base < wn; base += kMaxTaskTile) {
    if (base != 0) load_children(x, r, b1, wn, base, v, d);
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      const index_t c = base + r + i * kThreads;
      if (c < wn) child[count[minrank[c]] + next[c]] = make_uint2(d[i], static_cast<unsigned>(v[i]));
    }
  }
  ctx.sync();
  for (index_t base = 0; base < wn; base += kMaxTaskTile) {
    unsigned p[kItems];
    index_t slot[kItems], first[kItems], last[kItems];
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      const index_t c = base + r + i * kThreads;
      p[i] = minrank[std::min(c, wn - 1)];
      slot[i] = c < wn ? next[c] : 0;  // next[] is being rewritten: no stand-in reads there
    }
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      first[i] = count[p[i]];
      last[i] = count[p[i] + 1];
    }
    uint2 self[kItems];
#pragma unroll
    for (int i = 0; i < kItems; ++i) self[i] = child[first[i] + slot[i]];
    // The first kNear siblings of every child at once (a mesh vertex has a few), the
    // rest, if any, one by one.
    constexpr int kNear = 2;
    index_t rank[kItems];
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      uint2 o[kNear];
#pragma unroll
      for (int t = 0; t < kNear; ++t) o[t] = child[std::min(first[i] + t, last[i] - 1)];
      rank[i] = 0;
#pragma unroll
      for (int t = 0; t < kNear; ++t)
        rank[i] += first[i] + t < last[i] && sorts_before(o[t], self[i]);
    }
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      for (index_t q = first[i] + kNear; q < last[i]; ++q) rank[i] += sorts_before(child[q], self[i]);
    }
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      const index_t c = base + r + i * kThreads;
      if (c >= wn) continue;
      next[c] = first[i] + rank[i];
      x.order[b1 + first[i] + rank[i]] = static_cast<index_t>(self[i].y);
    }
  }
}

// The general path: orders level k+1 = queue[b1, b2) from the ranks of level k =
// queue[b0, b1). Levels of at most `tile` vertices keep their arrays in shared memory,
// wider ones in x's (up to 4 tiles wide, their smallest parent ranks stay in shared
// memory). Returns false, having ordered nothing, for what it does not handle: a level
// wider than an entry can describe, or a wide level where a parent has more than
// kMaxSiblings children (the caller then runs the search with claims). Starts and ends
// with a barrier passed.
template <class Ctx>
__device__ bool rank_level(const Ctx& ctx, RankShared& sh, index_t k, index_t b0, index_t b1, index_t b2) {
  const RankEnv& x = sh.env;
  const index_t tile = sh.tile;
  const int r = ctx.rank();
  const index_t wp = b1 - b0, wn = b2 - b1;
  if (wp > kPairLevelWidth || wn > kPairLevelWidth) return false;
  const bool narrow = wn <= tile;
  const index_t* prev = wp <= tile ? sh.rank[k & 1] : x.rank[k & 1];
  index_t* next = narrow ? sh.rank[(k + 1) & 1] : x.rank[(k + 1) & 1];
  unsigned* minrank = narrow ? sh.c.minrank : wn <= 4 * tile ? sh.wide_minrank : x.minrank;
  index_t* count = narrow && wp <= tile ? sh.c.count : x.count;  // not over wide_minrank
  uint2* child = narrow ? sh.c.child : x.child;
  // The first kMaxTaskTile children, loaded now and used after the counting.
  index_t v[kItems];
  unsigned d[kItems];
  load_children(x, r, b1, wn, 0, v, d);
  // Smallest parent rank of each child, the loads of kItems children issued at once.
  for (index_t base = 0; base < wn; base += kMaxTaskTile) {
    ChildParents<kItems> c;
    load_bounds(x, r, b1, wn, base, c);
    load_near(x, c);
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      unsigned m, t;
      smallest_parent(x, prev, c.near[i], c.begin[i] + kNearParents, c.end[i], m, t);
      if (base + r + i * kThreads < wn) minrank[base + r + i * kThreads] = m;
    }
  }
  for (index_t p = r; p <= wp; p += kThreads) count[p] = 0;
  if (r == 0) {
    sh.largest = 0;
    sh.slow[(k + 1) & 1] = 0;  // see rank_levels
  }
  ctx.sync();
  // Children per parent; a child's slot among its siblings waits in next[] meanwhile. The
  // loops over a level's children go kItems at a time, each step issued for all of them
  // before any result is used: on a wide level, whose arrays are in global memory, a loop
  // that waited for each child's atomic and loads in turn took tens of µs.
  for (index_t base = 0; base < wn; base += kMaxTaskTile) {
    unsigned p[kItems];
#pragma unroll
    for (int i = 0; i < kItems; ++i) p[i] = minrank[std::min(base + r + i * kThreads, wn - 1)];
    index_t slot[kItems];
#pragma unroll
    for (int i = 0; i < kItems; ++i) slot[i] = base + r + i * kThreads < wn ? atomicAdd(&count[p[i]], 1) : 0;
#pragma unroll
    for (int i = 0; i < kItems; ++i)
      if (base + r + i * kThreads < wn) next[base + r + i * kThreads] = slot[i];
  }
  ctx.sync();
  // Exclusive scan of the counts, kItems consecutive parents per thread and chunk.
  index_t carry = 0, most = 0;
  for (index_t base = 0; base < wp; base += kMaxTaskTile) {
    index_t n[kItems];
    index_t sum = 0;
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      const index_t p = base + r * kItems + i;
      n[i] = p < wp ? count[p] : 0;
      sum += n[i];
      most = std::max(most, n[i]);
    }
    index_t total = 0;
    index_t run = carry + task_exclusive_sum(ctx, sh.warp_total, sum, total);
    ctx.sync();  // the warp totals are read before the next chunk writes them
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      const index_t p = base + r * kItems + i;
      if (p < wp) count[p] = run;
      run += n[i];
    }
    carry += total;
  }
  if (r == 0) count[wp] = wn;
  atomicMax(&sh.largest, most);
  ctx.sync();
  if (sh.largest > kMaxSiblings && !narrow) return false;
  if (sh.largest > kMaxSiblings) {
    // A merge sort of the (narrow) level instead.
    SortKey keys[kItems];
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      const index_t c = r + i * kThreads;
      keys[i] = c < wn ? SortKey{std::uint64_t{minrank[c]} << 32 | d[i], static_cast<std::uint32_t>(v[i])} : kMaxKey;
    }
    ctx.sync();  // minrank is read before the sort's storage, over it, is written
    static_assert(sizeof(typename TaskMergeSort<Ctx>::TempStorage) == sizeof(SortStorage));
    TaskMergeSort<Ctx>(*reinterpret_cast<typename TaskMergeSort<Ctx>::TempStorage*>(sh.sort), ctx).Sort(keys, KeyLess{});
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      const index_t at = r * kItems + i;
      if (at >= wn) continue;
      const auto vertex = static_cast<index_t>(keys[i].vertex);
      next[x.bfs_pos[vertex] - b1] = at;
      x.order[b1 + at] = vertex;
    }
  } else {
    order_by_counts(ctx, x, minrank, count, child, next, b1, wn, v, d);
  }
  ctx.sync();
  return true;
}

// A fast level's children in registers, loaded a level ahead: the bounds in one step,
// the first parents and the vertices in the next.
struct FastChildren : ChildParents<kFastItems> {
  index_t vertex[kFastItems];
};

__device__ void load_near_and_vertices(const RankEnv& x, int r, index_t first, index_t wn, FastChildren& f) {
  load_near(x, f);
#pragma unroll
  for (int i = 0; i < kFastItems; ++i) f.vertex[i] = __ldg(x.queue + first + std::min(r + i * kThreads, wn - 1));
}

// Inclusive sum over a warp's lanes.
__device__ unsigned warp_inclusive_sum(unsigned value, int lane) {
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    const unsigned y = __shfl_up_sync(0xffffffffu, value, o);
    if (lane >= o) value += y;
  }
  return value;
}

// Orders up to kLevelsPerTask levels from level k + 1 on, each from the ranks of the one
// before (in sh.rank, or x.rank where wider than the tile), and adds how many took each
// path to x.level_counts. Returns the last level whose ranks are known (x.levels - 1:
// all), or -1 where the general path gave up, or -2 for an aborted run. Not inlined:
// inside the megakernel's dispatch, inlined level code cost the BFS (Narrow) a quarter of
// its speed on an H100 (poisson2d:1000, 43.9 -> 58.7 ms). One call walks many levels, so
// the next level's children stay in registers.
template <class Ctx>
__device__ __noinline__ index_t rank_levels(const Ctx& ctx, RankShared& sh, index_t k) {
  const RankEnv& x = sh.env;
  const int r = ctx.rank(), lane = r % 32;
  // Levels k .. k+3 start at b0 .. b3 (a level past the last is empty).
  const auto begin_of = [&](index_t level) {
    return level <= x.levels ? __ldg(x.level_begin + level) : x.level_begin[x.levels];
  };
  index_t b0 = begin_of(k), b1 = begin_of(k + 1), b2 = begin_of(k + 2), b3 = begin_of(k + 3);
  FastChildren f;
  bool loaded = false;  // f holds level k+1's children
  bool clean = false;   // sh.f.mask[k & 1] is zero over level k's ranks
  unsigned fast = 0, general = 0;
  index_t last = -1;
  for (int step = 0;; ++step) {
    if (k + 1 == x.levels || step == kLevelsPerTask) {
      last = k;
      break;
    }
    if (step % 64 == 0 && ctx.aborted_together(sh.stop)) {
      last = -2;
      break;
    }
    const index_t b4 = begin_of(k + 4);  // for the next level
    const index_t wp = b1 - b0, wn = b2 - b1, wn2 = b3 - b2;
    const index_t tile = sh.tile;
    bool ordered = false;
    if (wp <= kFastWidth && wn <= kFastWidth && wp <= tile && wn <= tile) {
      const index_t* prev = sh.rank[k & 1];
      index_t* next = sh.rank[(k + 1) & 1];
      unsigned* mask = sh.f.mask[k & 1];
      if (!loaded) {
        load_bounds(x, r, b1, wn, 0, f);
        load_near_and_vertices(x, r, b1, wn, f);
      }
      if (!clean) {  // after the general path, whose arrays lie over the masks
        for (index_t p = r; p < wp; p += kThreads) mask[p] = 0;
        ctx.sync();
      }
      // Each child's smallest parent rank m and place t: bit t of mask[m].
      unsigned m[kFastItems], t[kFastItems];
#pragma unroll
      for (int i = 0; i < kFastItems; ++i) {
        smallest_parent(x, prev, f.near[i], f.begin[i] + kNearParents, f.end[i], m[i], t[i]);
        if (r + i * kThreads >= wn) continue;
        if (t[i] < kRankedChildren) atomicOr(&mask[m[i]], 1u << t[i]);
        else sh.slow[k & 1] = 1;
      }
      for (index_t p = r; p < wn; p += kThreads) sh.f.mask[(k + 1) & 1][p] = 0;  // for the next level
      if (r == 0) sh.slow[(k + 1) & 1] = 0;
      const bool ahead = wn2 > 0 && wn2 <= kFastWidth && wn2 <= tile;
      if (ahead) load_bounds(x, r, b2, wn2, 0, f);
      ctx.sync();
      if (sh.slow[k & 1] == 0) {
        // Population counts, thread r's kFastItems consecutive parent ranks, scanned within
        // the warp (first[]) and over the warps (warp_total).
        unsigned n[kFastItems], sum = 0;
#pragma unroll
        for (int i = 0; i < kFastItems; ++i) {
          const index_t p = r * kFastItems + i;
          n[i] = p < wp ? __popc(mask[p]) : 0;
          sum += n[i];
        }
        const unsigned inclusive = warp_inclusive_sum(sum, lane);
        unsigned run = inclusive - sum;
#pragma unroll
        for (int i = 0; i < kFastItems; ++i) {
          const index_t p = r * kFastItems + i;
          if (p < wp) sh.f.first[p] = static_cast<index_t>(run);
          run += n[i];
        }
        if (lane == 31) sh.warp_total[r / 32] = static_cast<index_t>(inclusive);
        ctx.sync();
        // Each child's rank: its parent rank's first position, plus the siblings before it.
        const unsigned total = lane < kWarps ? static_cast<unsigned>(sh.warp_total[lane]) : 0;
        const unsigned before = warp_inclusive_sum(total, lane) - total;
#pragma unroll
        for (int i = 0; i < kFastItems; ++i) {
          const bool mine = r + i * kThreads < wn;
          const unsigned warp = mine ? m[i] / kRanksPerWarp : 0;
          const unsigned base = __shfl_sync(0xffffffffu, before, static_cast<int>(warp));
          if (!mine) continue;
          const unsigned siblings_before = __popc(mask[m[i]] & ((1u << t[i]) - 1));
          const unsigned rank = base + static_cast<unsigned>(sh.f.first[m[i]]) + siblings_before;
          next[r + i * kThreads] = static_cast<index_t>(rank);
          x.order[b1 + rank] = f.vertex[i];
        }
        if (ahead) load_near_and_vertices(x, r, b2, wn2, f);
        ctx.sync();
        ordered = true;
        ++fast;
        loaded = ahead;
        clean = true;
      }
    }
    if (!ordered) {
      if (!rank_level(ctx, sh, k, b0, b1, b2)) break;  // last = -1
      ++general;
      loaded = false;
      clean = false;
    }
    ++k;
    b0 = b1;
    b1 = b2;
    b2 = b3;
    b3 = b4;
  }
  if (r == 0) {
    atomicAdd(x.level_counts, static_cast<unsigned long long>(fast));
    atomicAdd(x.level_counts + 1, static_cast<unsigned long long>(general));
  }
  return last;
}

// Item: the level whose order is known: 0 for a new search (the root), or where a
// predecessor stopped after kLevelsPerTask levels.
struct Rank {
  using Item = index_t;
  static constexpr int threads = kThreads;
  static constexpr int shared_bytes = sizeof(RankShared);
  template <class Ctx>
  __device__ static void execute(const Item& from, Ctx& ctx) {
    const TaskEnv& e = ctx.env();
    const RankEnv& x = e.rank;
    RankShared& sh = *ctx.template shared_as<RankShared>();
    const int r = ctx.rank();
    const index_t k = from;
    const index_t b0 = x.level_begin[k], b1 = x.level_begin[k + 1];
    if (r == 0) {
      sh.env = x;
      sh.tile = e.tile;
      sh.slow[0] = sh.slow[1] = 0;
    }
    if (k == 0) {
      if (r == 0) {
        sh.rank[0][0] = 0;
        x.order[0] = x.queue[0];
      }
    } else if (b1 - b0 <= e.tile) {  // a wide level's ranks are still in x.rank
      for (index_t t = r; t < b1 - b0; t += kThreads) sh.rank[k & 1][x.bfs_pos[x.order[b0 + t]] - b0] = t;
    }
    ctx.sync();
    const index_t last = rank_levels(ctx, sh, k);
    if (last == -2 || r != 0) return;
    if (last == -1) {
      *x.state = LevelState{0, 0, 0, -1, 0};  // the caller searches with claims
    } else if (last + 1 == x.levels) {
      const index_t b = x.level_begin[last], end = x.level_begin[last + 1];
      *x.state = LevelState{b, end, end, last + 1, 0};
    } else {
      ctx.template enqueue<Rank>(last);  // a successor goes on (the watchdog sees progress)
    }
  }
};

template <bool Bitmap>
using RcmProgram =
    Program<Phase<Narrow<Bitmap>, Expand, Plan, Rank>, Phase<SortChunk>, Phase<Merge<0>>, Phase<Merge<1>>>;

// Queue bytes of the runtime, as its constructor allocates them (docs/writing-tasks.md:
// capacity rounded up to a power of two, times the item plus 8 bytes).
template <class T>
std::size_t queue_bytes(std::uint32_t capacity) {
  return std::bit_ceil(capacity) * (sizeof(typename T::Item) + 8);
}

// The per-vertex arrays that the level path (Rank) and the merge passes of the claims
// path use, never at the same time, carved from one allocation of 10 n + 2 indices.
struct Scratch {
  DeviceBuffer<index_t> memory;
  SortKey* runs[2] = {nullptr, nullptr};  // claims path: 2 x n keys (8 n indices)
  // Level path:
  uint2* child = nullptr;  // 2 n
  index_t* rank[2] = {nullptr, nullptr};
  index_t* level_of = nullptr;  // the parent kernels' level of each vertex; then Rank's minrank
  index_t* count = nullptr;     // n + 1: the parent kernels' scan input; then Rank's counts
  index_t* parent_begin = nullptr;  // n + 1
  index_t* bfs_pos = nullptr;
  index_t* degree_at = nullptr;
  index_t* order = nullptr;

  explicit Scratch(index_t n) : memory(10 * static_cast<std::size_t>(n) + 2) {
    index_t* at = memory.data();
    const auto take = [&](std::size_t count) {
      index_t* p = at;
      at += count;
      return p;
    };
    const auto un = static_cast<std::size_t>(n);
    runs[0] = reinterpret_cast<SortKey*>(at);
    runs[1] = reinterpret_cast<SortKey*>(at + 4 * un);
    child = reinterpret_cast<uint2*>(take(2 * un));
    rank[0] = take(un);
    rank[1] = take(un);
    level_of = take(un);
    count = take(un + 1);
    parent_begin = take(un + 1);
    bfs_pos = take(un);
    degree_at = take(un);
    order = take(un);
  }
};

// The padded copy of the graph (TaskEnv::padded): a thread per slot, so that both the
// writes and the row reads are contiguous.
__global__ void pad_rows(const index_t* row_ptr, const index_t* col, index_t n, int shift, index_t* padded) {
  const std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= std::int64_t{n} << shift) return;
  const auto v = static_cast<index_t>(t >> shift);
  const auto slot = static_cast<index_t>(t & ((1 << shift) - 1));
  const index_t first = row_ptr[v];
  padded[t] = slot < row_ptr[v + 1] - first ? col[first + slot] : -1;
}

constexpr index_t kMaxPaddedSlots = 8;  // RcmGpuOptions::padded_rows

class TaskEngine {
 public:
  TaskEngine(const sparse::Csr<double>& g, Scheduler scheduler, int tile, bool reuse_levels, bool bfs_bitmap,
             bool padded_rows)
      : g_(g),
        scheduler_(scheduler),
        reuse_levels_(reuse_levels),
        queue_{DeviceBuffer<index_t>(static_cast<std::size_t>(g.rows)),
               DeviceBuffer<index_t>(static_cast<std::size_t>(g.rows))},
        mark_(static_cast<std::size_t>(g.rows)),
        parent_(static_cast<std::size_t>(g.rows)),
        level_begin_{DeviceBuffer<index_t>(static_cast<std::size_t>(g.rows) + 1),
                     DeviceBuffer<index_t>(static_cast<std::size_t>(g.rows) + 1)},
        scratch_(g.rows),
        parents_(std::max<std::size_t>(g.nnz(), 1)),  // at most one entry per edge
        scan_(level_parents_scan_bytes(g.rows)),
        state_(2),
        level_counts_(2),
        plan_(make_dependencies(1)),
        rt_(run_options()) {
    mark_.fill_zero();  // stamps start at 1
    level_counts_.fill_zero();
    APIARY_CUDA_CHECK(cudaMemset(parent_.data(), 0xff, parent_.bytes()));  // kUnclaimed
    const auto wide = static_cast<std::uint32_t>(g.rows / tile + 2);  // chunk tasks of one level
    const index_t expand_chunk = std::min<index_t>(tile, kExpandChunk);
    const auto expands = static_cast<std::uint32_t>(g.rows / expand_chunk + 2);
    const auto set_capacities = [&](auto& rt) {
      rt.template set_queue_capacity<Expand>(expands);
      rt.template set_queue_capacity<SortChunk>(wide);
      rt.template set_queue_capacity<Merge<0>>(wide);
      rt.template set_queue_capacity<Merge<1>>(wide);
    };
    set_capacities(rt_);
    if (bfs_bitmap && g.rows <= kBitmapBits) set_capacities(bitmap_rt_.emplace(run_options()));
    // Only the bitmap's program reads the padded copy (expand_padded).
    if (bitmap_rt_ && padded_rows && g_.max_degree > 0 && g_.max_degree <= kMaxPaddedSlots) {
      env_.padded_shift = g_.max_degree <= 4 ? 2 : 3;
      const std::int64_t slots = std::int64_t{g.rows} << env_.padded_shift;
      padded_ = DeviceBuffer<index_t>(static_cast<std::size_t>(slots));
      pad_rows<<<static_cast<unsigned>((slots + kThreads - 1) / kThreads), kThreads>>>(
          g_.row_ptr.data(), g_.col.data(), g.rows, env_.padded_shift, padded_.data());
      APIARY_CUDA_CHECK_LAUNCH();
      env_.padded = padded_.data();
    }
    const std::size_t bytes = g_.bytes() + padded_.bytes() + 2 * queue_[0].bytes() + mark_.bytes() + parent_.bytes() +
                              2 * level_begin_[0].bytes() + scratch_.memory.bytes() + parents_.bytes() + scan_.bytes() +
                              state_.bytes() + level_counts_.bytes() + plan_.bytes();
    const std::size_t queues = queue_bytes<Narrow<false>>(2) + queue_bytes<Plan>(2) + queue_bytes<Rank>(2) +
                               queue_bytes<Expand>(expands) + queue_bytes<SortChunk>(wide) +
                               2 * queue_bytes<Merge<0>>(wide);
    bytes_ = bytes + (bitmap_rt_ ? 2 : 1) * queues;
    bytes_ = std::max(bytes_, g_.setup_peak_bytes);
    TaskEnv& e = env_;
    e.row_ptr = g_.row_ptr.data();
    e.col = g_.col.data();
    e.degree = g_.degree.data();
    use_buffer(0);
    e.mark = mark_.data();
    e.parent = parent_.data();
    e.runs[0] = scratch_.runs[0];
    e.runs[1] = scratch_.runs[1];
    e.state = state_.data();
    e.plan = plan_.data();
    e.tile = tile;
    e.vertices = g.rows;
    e.expand_chunk = expand_chunk;
    RankEnv& x = e.rank;
    x.state = state_.data() + 1;
    x.level_counts = level_counts_.data();
    x.parents = parents_.data();
    x.parent_begin = scratch_.parent_begin;
    x.bfs_pos = scratch_.bfs_pos;
    x.degree_at = scratch_.degree_at;
    x.order = scratch_.order;
    x.minrank = reinterpret_cast<unsigned*>(scratch_.level_of);
    x.count = scratch_.count;
    x.rank[0] = scratch_.rank[0];
    x.rank[1] = scratch_.rank[1];
    x.child = scratch_.child;
  }

  index_t degree(index_t v) const { return degree_without_loops(*g_.host, v); }  // from the host matrix
  index_t least_degree_vertex() const { return g_.least_degree_vertex; }
  std::size_t peak_device_bytes() const { return bytes_; }
  bool two_pass_used() const { return false; }
  int runs() const { return runs_count_; }
  std::uint64_t tasks() const { return tasks_; }
  std::uint64_t phase_switches() const { return phase_switches_; }
  int cm_from_levels() const { return cm_from_levels_; }
  int cm_fallbacks() const { return cm_fallbacks_; }
  int cm_overlapped() const { return cm_overlapped_; }
  int bitmap_bfs() const { return bitmap_bfs_; }
  int padded_slots() const { return env_.padded != nullptr ? 1 << env_.padded_shift : 0; }
  // Levels that Rank tasks ordered by their fast path and by their general one (a download).
  std::array<unsigned long long, 2> rank_level_counts() const {
    std::array<unsigned long long, 2> c{};
    APIARY_CUDA_CHECK(cudaMemcpy(c.data(), level_counts_.data(), sizeof c, cudaMemcpyDeviceToHost));
    return c;
  }

  // Each BFS fills the other pair of queue and level-start buffers, so the levels of the
  // one before stay: the George–Liu search's candidate is no deeper than the root before
  // it exactly when the search ends and the driver takes that root, so while the BFS from
  // the candidate runs, a Rank task of the same run orders the levels of the BFS before
  // it (phase 0 holds both types). The order is there when the driver asks for it.
  //
  // A BFS runs the Bitmap program (Narrow<true>) where it can (at most kBitmapBits
  // vertices) unless the BFS before it in the component was shallow: more than
  // kBitmapLevelWidth vertices per level on average, where levels are too wide for a
  // Narrow task to get far and the bitmap's cost to the other tasks (see
  // NarrowBitmapShared) is all that is left.
  BfsLevels bfs(index_t root) {
    TaskEnv& e = env_;
    e.bfs = true;
    e.stamp = ++stamp_;
    const index_t before = bfs_root_;
    // A level wider than an entry can describe makes Rank give up: not worth starting when
    // the average level is that wide already (the random graph).
    const bool overlap = reuse_levels_ && before >= 0 &&
                         static_cast<std::int64_t>(bfs_size_) <= std::int64_t{bfs_levels_} * kPairLevelWidth;
    if (overlap) prepare_rank(cur_);
    use_buffer(1 - cur_);
    const bool shallow_before =
        before >= 0 && static_cast<std::int64_t>(bfs_size_) > std::int64_t{bfs_levels_} * kBitmapLevelWidth;
    const bool bitmap = bitmap_rt_ && !shallow_before;
    const std::array<LevelState, 2> s = bitmap ? bfs_run(*bitmap_rt_, root, overlap) : bfs_run(rt_, root, overlap);
    bitmap_bfs_ += bitmap ? 1 : 0;
    ranked_root_ = overlap ? before : -1;
    ranked_ = s[1];
    cur_ = 1 - cur_;
    best_ = s[0].best;
    bfs_root_ = root;
    bfs_levels_ = s[0].levels;
    bfs_size_ = s[0].end;
    return {s[0].levels, s[0].end};
  }

  index_t min_degree_in_last_level() const { return static_cast<index_t>(best_ & 0xffffffffu); }

  // From the levels of a BFS from root: the one before the last, ordered during the last
  // (see bfs), or the last, ordered now; otherwise, or when the level path gives up, a
  // search with claims.
  CmOrder cuthill_mckee(index_t root, index_t* out_end) {
    env_.bfs = false;
    LevelState s{};
    bool from_levels = false;
    if (reuse_levels_ && root == ranked_root_) {
      s = ranked_;
      from_levels = true;
      ++cm_overlapped_;
    } else if (reuse_levels_ && root == bfs_root_) {
      s = order_levels();
      from_levels = true;
    }
    if (from_levels) {
      if (s.levels > 0) ++cm_from_levels_;
      else ++cm_fallbacks_;
    }
    const index_t* from = scratch_.order;
    if (s.levels <= 0) {
      use_buffer(cur_);
      rt_.seed<Narrow<false>>(root);
      s = run_seeded(rt_)[0];
      from = queue_[cur_].data();
    }
    bfs_root_ = -1;  // the claims search overwrites the BFS order in the queue,
    ranked_root_ = -1;  // and the next search the scratch arrays
    // Through a scratch array the order is not in (bfs_pos is free once Rank has ended).
    copy_reversed_to_host(from, s.end, from == scratch_.order ? scratch_.bfs_pos : scratch_.order, out_end);
    return {s.levels, s.end};
  }

 private:
  static RunOptions run_options() {
    RunOptions o;
    o.cyclic = true;
    o.queue_capacity = 2;  // Narrow, Plan, Rank: one at a time; the chunk types are set above
    o.waiting_capacity = 2;  // one Plan waits at a time; a spare slot keeps probing short
    return o;
  }

  // The searches write queue_[b] and level_begin_[b].
  void use_buffer(int b) {
    env_.queue = queue_[b].data();
    env_.level_begin = level_begin_[b].data();
  }

  // The parent lists of the levels the last BFS left in buffer b (over the whole GPU), for Rank
  // tasks that read them from there.
  void prepare_rank(int b) {
    const LevelParentsArgs a{g_.row_ptr.data(),  g_.col.data(),      queue_[b].data(), level_begin_[b].data(),
                           bfs_levels_,        bfs_size_,          g_.degree.data(), scratch_.bfs_pos,
                           scratch_.degree_at, scratch_.level_of,  scratch_.count,   scratch_.parent_begin,
                           parents_.data()};
    build_level_parents(a, scan_.data(), scan_.bytes());
    RankEnv& x = env_.rank;
    x.queue = queue_[b].data();
    x.level_begin = level_begin_[b].data();
    x.levels = bfs_levels_;
  }

  // The last BFS's levels ordered by one Rank task per kLevelsPerTask levels.
  // state.levels < 0: Rank gave up.
  LevelState order_levels() {
    prepare_rank(cur_);
    rt_.seed<Rank>(0);
    return run_seeded(rt_)[1];
  }

  // A BFS from root in runtime rt, with a Rank task beside it if `rank`.
  template <class R>
  std::array<LevelState, 2> bfs_run(R& rt, index_t root, bool rank) {
    if (rank) rt.template seed<Rank>(0);
    rt.template seed<NarrowOf<typename R::Program>>(root);
    return run_seeded(rt);
  }

  // Runs what is seeded in rt with the engine's environment; the states of the search
  // (Narrow and the types it hands to) and of Rank.
  template <class R>
  std::array<LevelState, 2> run_seeded(R& rt) {
    rt.env() = env_;
    const RunStats stats = rt.run(scheduler_);
    ++runs_count_;
    tasks_ += stats.total_tasks();
    phase_switches_ += stats.phase_switches;
    std::array<LevelState, 2> s{};
    APIARY_CUDA_CHECK(cudaMemcpy(s.data(), state_.data(), sizeof s, cudaMemcpyDeviceToHost));
    return s;
  }

  DeviceGraph g_;
  Scheduler scheduler_;
  bool reuse_levels_;
  DeviceBuffer<index_t> queue_[2];
  DeviceBuffer<unsigned> mark_;
  DeviceBuffer<unsigned> parent_;
  DeviceBuffer<index_t> level_begin_[2];
  Scratch scratch_;
  DeviceBuffer<std::uint32_t> parents_;
  DeviceBuffer<unsigned char> scan_;
  DeviceBuffer<LevelState> state_;
  DeviceBuffer<unsigned long long> level_counts_;  // RankEnv::level_counts
  DeviceBuffer<Dependency> plan_;
  DeviceBuffer<index_t> padded_;  // TaskEnv::padded, when made
  TaskEnv env_;  // copied into the runtime of each run
  Runtime<RcmProgram<false>, TaskEnv> rt_;
  std::optional<Runtime<RcmProgram<true>, TaskEnv>> bitmap_rt_;  // graphs of at most kBitmapBits vertices
  unsigned stamp_ = 0;
  unsigned long long best_ = 0;
  int cur_ = 0;  // the buffers of the last search
  index_t bfs_root_ = -1;  // root of the BFS whose levels are in buffer cur_; -1: none
  index_t bfs_levels_ = 0;
  index_t bfs_size_ = 0;
  index_t ranked_root_ = -1;  // root of the BFS before the last, when Rank ordered its levels
  LevelState ranked_{};       // that Rank's state (levels < 0: it gave up)
  int runs_count_ = 0;
  std::uint64_t tasks_ = 0;
  std::uint64_t phase_switches_ = 0;
  int cm_from_levels_ = 0;
  int cm_fallbacks_ = 0;
  int cm_overlapped_ = 0;
  int bitmap_bfs_ = 0;
  std::size_t bytes_ = 0;
};

}  // namespace

void rcm_tasks(const sparse::Csr<double>& graph, Scheduler scheduler, const RcmGpuOptions& options,
               RcmGpuResult& r) {
  const int tile = options.task_tile == 0 ? kMaxTaskTile : options.task_tile;
  const auto t0 = std::chrono::steady_clock::now();
  TaskEngine e(graph, scheduler, tile, options.reuse_levels, options.bfs_bitmap, options.padded_rows);
  r.setup_ms = ms_since(t0);
  drive_into(e, graph.rows, options.start_nodes, r);
  r.device_bytes = e.peak_device_bytes();
  r.runs = e.runs();
  r.tasks = e.tasks();
  r.phase_switches = e.phase_switches();
  r.cm_from_levels = e.cm_from_levels();
  r.cm_fallbacks = e.cm_fallbacks();
  r.cm_overlapped = e.cm_overlapped();
  r.bitmap_bfs = e.bitmap_bfs();
  r.padded_slots = e.padded_slots();
  const auto counts = e.rank_level_counts();
  r.rank_fast_levels = static_cast<std::int64_t>(counts[0]);
  r.rank_general_levels = static_cast<std::int64_t>(counts[1]);
}

}  // namespace apiary::rcm::detail
