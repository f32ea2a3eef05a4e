// Variant `cub` of the GPU RCM (rcm_gpu.hpp): the device engine of the host driver in
// rcm_driver.hpp. Also rcm_gpu() itself, which checks its arguments and hands `tasks` to
// rcm_tasks.cu.
//
// Races, and why each is harmless:
// - Expansion (bfs_expand, cm_expand): a warp per vertex u of the current level
//   queue[begin, end) reads u's neighbours and appends newly reached vertices at
//   queue[tail++] (tail >= end), so reads and writes of the queue never overlap within a
//   kernel. A vertex is appended by exactly one thread: the one whose atomic exchange
//   (BFS: mark := stamp) or atomic min (Cuthill–McKee: parent := min(parent, position))
//   saw the "unreached" value first. The plain load before each atomic only skips atomics
//   that cannot change anything; a stale value leads to an atomic that then finds the
//   vertex taken.
// - Cuthill–McKee parents: a vertex of the next level ends with the smallest position
//   among its neighbours in the current level, because every atomic min of the kernel has
//   completed when the key kernel (next launch, same stream) reads it. Vertices of the
//   current and previous levels are never lowered: their parent lies in an earlier level,
//   below every position of the current level, and the root's parent is 0.
// - Kernels of one stream run in order, so each kernel sees the previous one's writes.
// The host reads the new tail after each level (one 4-byte copy), sorts the new level
// with cub::DeviceRadixSort and goes on; positions restart at 0 in each component, and
// each component's order is copied back to the host when its search ends.
#include <cub/device/device_radix_sort.cuh>
#include <cuda/atomic>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"
#include "runtime/device_buffer.hpp"
#include "tasks/rcm/device_graph.cuh"
#include "tasks/rcm/level_keys.hpp"
#include "tasks/rcm/prepare.hpp"
#include "tasks/rcm/rcm_driver.hpp"
#include "tasks/rcm/rcm_gpu.hpp"
#include "tasks/rcm/rcm_tasks.hpp"

namespace apiary::rcm {

namespace {

constexpr int kThreads = 256;
constexpr int kWarp = 32;
constexpr unsigned kUnclaimed = 0xffffffffu;

template <class T>
using device_ref = cuda::atomic_ref<T, cuda::thread_scope_device>;

unsigned blocks_for(std::int64_t threads) {
  return static_cast<unsigned>((threads + kThreads - 1) / kThreads);
}

// The first level of a search: queue = {root}, flags[root] = value.
__global__ void seed_kernel(index_t* queue, index_t* tail, unsigned* flags, index_t root, unsigned value) {
  queue[0] = root;
  *tail = 1;
  flags[root] = value;
}

__global__ void bfs_expand(const index_t* row_ptr, const index_t* col, index_t* queue, index_t begin, index_t end,
                           unsigned* mark, unsigned stamp, index_t* tail) {
  const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t w = thread / kWarp;
  const int lane = static_cast<int>(thread % kWarp);
  if (w >= end - begin) return;
  const index_t u = queue[begin + w];
  for (std::int64_t k = row_ptr[u] + lane; k < row_ptr[u + 1]; k += kWarp) {
    const index_t v = col[k];
    device_ref<unsigned> m(mark[v]);
    if (m.load(cuda::memory_order_relaxed) != stamp && m.exchange(stamp, cuda::memory_order_relaxed) != stamp)
      queue[device_ref<index_t>(*tail).fetch_add(1, cuda::memory_order_relaxed)] = v;
  }
}

__global__ void cm_expand(const index_t* row_ptr, const index_t* col, index_t* queue, index_t begin, index_t end,
                          unsigned* parent, index_t* tail) {
  const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t w = thread / kWarp;
  const int lane = static_cast<int>(thread % kWarp);
  if (w >= end - begin) return;
  const auto pos = static_cast<unsigned>(begin + w);
  const index_t u = queue[pos];
  for (std::int64_t k = row_ptr[u] + lane; k < row_ptr[u + 1]; k += kWarp) {
    const index_t v = col[k];
    device_ref<unsigned> p(parent[v]);
    if (p.load(cuda::memory_order_relaxed) > pos && p.fetch_min(pos, cuda::memory_order_relaxed) == kUnclaimed)
      queue[device_ref<index_t>(*tail).fetch_add(1, cuda::memory_order_relaxed)] = v;
  }
}

// (degree << 32 | vertex) minimum over queue[begin, end): ties go to the smallest index.
__global__ void min_degree_kernel(const index_t* queue, index_t begin, index_t end, const index_t* degree,
                                  unsigned long long* best) {
  const std::int64_t i = begin + static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= end) return;
  const index_t v = queue[i];
  const unsigned long long key =
      static_cast<unsigned long long>(static_cast<unsigned>(degree[v])) << 32 | static_cast<unsigned>(v);
  device_ref<unsigned long long>(*best).fetch_min(key, cuda::memory_order_relaxed);
}

__global__ void level_keys(const index_t* level, index_t count, const unsigned* parent, unsigned parent_begin,
                           const index_t* degree, LevelKeyLayout layout, std::uint64_t* keys) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const index_t v = level[i];
  keys[i] = layout.pack(parent[v] - parent_begin, static_cast<std::uint32_t>(degree[v]), static_cast<std::uint32_t>(v));
}

__global__ void level_from_keys(const std::uint64_t* keys, index_t count, LevelKeyLayout layout, index_t* level) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count) return;
  level[i] = static_cast<index_t>(layout.vertex_of(keys[i]));
}

__global__ void index_keys(const index_t* level, index_t count, std::uint64_t* keys) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count) return;
  keys[i] = static_cast<std::uint32_t>(level[i]);
}

__global__ void parent_degree_keys(const std::uint64_t* by_index, index_t count, const unsigned* parent,
                                   unsigned parent_begin, const index_t* degree, LevelKeyLayout layout,
                                   std::uint64_t* keys, index_t* values) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const auto v = static_cast<index_t>(by_index[i]);
  values[i] = v;
  keys[i] = layout.pack_parent_degree(parent[v] - parent_begin, static_cast<std::uint32_t>(degree[v]));
}

class DeviceEngine {
 public:
  DeviceEngine(const sparse::Csr<double>& g, bool force_two_pass)
      : g_(g),
        n_(g.rows),
        queue_(static_cast<std::size_t>(n_)),
        mark_(static_cast<std::size_t>(n_)),
        parent_(static_cast<std::size_t>(n_)),
        keys_a_(static_cast<std::size_t>(n_)),
        keys_b_(static_cast<std::size_t>(n_)),
        tail_(1),
        best_(1),
        readback_(1),
        force_two_pass_(force_two_pass) {
    mark_.fill_zero();  // stamps start at 1
    APIARY_CUDA_CHECK(cudaMemset(parent_.data(), 0xff, parent_.bytes()));  // kUnclaimed
    // Temporary storage for the largest sort (a level cannot hold all n vertices, so n
    // items bound every call); grown later only if CUB ever asks for more.
    std::size_t bytes = 0;
    APIARY_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, bytes, keys_a_.data(), keys_b_.data(), n_));
    ensure_temp(bytes);
    device_bytes_ = g_.bytes() + queue_.bytes() + mark_.bytes() + parent_.bytes() + keys_a_.bytes() + keys_b_.bytes() +
                    tail_.bytes() + best_.bytes();
    peak_bytes_ = std::max(device_bytes_ + temp_.bytes(), g_.setup_peak_bytes);
  }

  index_t degree(index_t v) const { return degree_without_loops(*g_.host, v); }  // from the host matrix
  index_t least_degree_vertex() const { return g_.least_degree_vertex; }
  std::size_t peak_device_bytes() const { return peak_bytes_; }
  bool two_pass_used() const { return two_pass_used_; }

  BfsLevels bfs(index_t root) {
    ++stamp_;
    seed_kernel<<<1, 1>>>(queue_.data(), tail_.data(), mark_.data(), root, stamp_);
    APIARY_CUDA_CHECK_LAUNCH();
    index_t begin = 0, end = 1, levels = 1;
    last_begin_ = 0;
    while (true) {
      bfs_expand<<<blocks_for(std::int64_t{end - begin} * kWarp), kThreads>>>(
          g_.row_ptr.data(), g_.col.data(), queue_.data(), begin, end, mark_.data(), stamp_, tail_.data());
      APIARY_CUDA_CHECK_LAUNCH();
      const index_t next_end = read_tail();
      if (next_end == end) break;
      last_begin_ = end;
      begin = end;
      end = next_end;
      ++levels;
    }
    last_end_ = end;
    return {levels, end};
  }

  index_t min_degree_in_last_level() {
    APIARY_CUDA_CHECK(cudaMemsetAsync(best_.data(), 0xff, best_.bytes()));
    min_degree_kernel<<<blocks_for(last_end_ - last_begin_), kThreads>>>(queue_.data(), last_begin_, last_end_,
                                                                          g_.degree.data(), best_.data());
    APIARY_CUDA_CHECK_LAUNCH();
    unsigned long long best = 0;
    APIARY_CUDA_CHECK(cudaMemcpy(&best, best_.data(), sizeof best, cudaMemcpyDeviceToHost));
    return static_cast<index_t>(best & 0xffffffffu);
  }

  CmOrder cuthill_mckee(index_t root, index_t* out_end) {
    seed_kernel<<<1, 1>>>(queue_.data(), tail_.data(), parent_.data(), root, 0u);
    APIARY_CUDA_CHECK_LAUNCH();
    index_t begin = 0, end = 1, levels = 1;
    while (true) {
      cm_expand<<<blocks_for(std::int64_t{end - begin} * kWarp), kThreads>>>(
          g_.row_ptr.data(), g_.col.data(), queue_.data(), begin, end, parent_.data(), tail_.data());
      APIARY_CUDA_CHECK_LAUNCH();
      const index_t next_end = read_tail();
      if (next_end == end) break;
      sort_level(begin, end, next_end);
      begin = end;
      end = next_end;
      ++levels;
    }
    // keys_b_ is free between sorts and holds n 64-bit keys.
    detail::copy_reversed_to_host(queue_.data(), end, reinterpret_cast<index_t*>(keys_b_.data()), out_end);
    return {levels, end};
  }

 private:
  index_t read_tail() {
    APIARY_CUDA_CHECK(cudaMemcpyAsync(readback_.host(), tail_.data(), sizeof(index_t), cudaMemcpyDeviceToHost));
    APIARY_CUDA_CHECK(cudaStreamSynchronize(nullptr));
    return readback_.host()[0];
  }

  void ensure_temp(std::size_t bytes) {
    if (bytes <= temp_.bytes()) return;
    APIARY_CUDA_CHECK(cudaDeviceSynchronize());  // no sort may still use the old buffer
    temp_ = DeviceBuffer<std::byte>(bytes);
  }

  void note_peak() {
    peak_bytes_ = std::max(peak_bytes_, device_bytes_ + temp_.bytes() + values_a_.bytes() + values_b_.bytes());
  }

  // Sorts queue[end, next_end), the children of the level queue[begin, end).
  void sort_level(index_t begin, index_t end, index_t next_end) {
    const index_t count = next_end - end;
    if (count < 2) return;
    const LevelKeyLayout layout = level_key_layout(end - begin, g_.max_degree, n_, force_two_pass_);
    index_t* level = queue_.data() + end;
    const auto parent_begin = static_cast<unsigned>(begin);
    std::size_t bytes = 0;
    if (layout.single_pass) {
      level_keys<<<blocks_for(count), kThreads>>>(level, count, parent_.data(), parent_begin, g_.degree.data(), layout,
                                                  keys_a_.data());
      APIARY_CUDA_CHECK_LAUNCH();
      APIARY_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, bytes, keys_a_.data(), keys_b_.data(), count, 0,
                                                       layout.key_bits()));
      ensure_temp(bytes);
      note_peak();
      APIARY_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(temp_.data(), bytes, keys_a_.data(), keys_b_.data(), count, 0,
                                                       layout.key_bits()));
      level_from_keys<<<blocks_for(count), kThreads>>>(keys_b_.data(), count, layout, level);
      APIARY_CUDA_CHECK_LAUNCH();
      return;
    }
    two_pass_used_ = true;
    if (values_a_.empty()) {
      values_a_ = DeviceBuffer<index_t>(static_cast<std::size_t>(n_));
      values_b_ = DeviceBuffer<index_t>(static_cast<std::size_t>(n_));
    }
    // Pass 1: by vertex index.
    index_keys<<<blocks_for(count), kThreads>>>(level, count, keys_a_.data());
    APIARY_CUDA_CHECK_LAUNCH();
    APIARY_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, bytes, keys_a_.data(), keys_b_.data(), count, 0,
                                                     layout.index_bits));
    ensure_temp(bytes);
    APIARY_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(temp_.data(), bytes, keys_a_.data(), keys_b_.data(), count, 0,
                                                     layout.index_bits));
    // Pass 2: stable by (relative parent position, degree).
    parent_degree_keys<<<blocks_for(count), kThreads>>>(keys_b_.data(), count, parent_.data(), parent_begin,
                                                        g_.degree.data(), layout, keys_a_.data(), values_a_.data());
    APIARY_CUDA_CHECK_LAUNCH();
    bytes = 0;
    APIARY_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys_a_.data(), keys_b_.data(),
                                                      values_a_.data(), values_b_.data(), count, 0,
                                                      layout.key_bits()));
    ensure_temp(bytes);
    note_peak();
    APIARY_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp_.data(), bytes, keys_a_.data(), keys_b_.data(),
                                                      values_a_.data(), values_b_.data(), count, 0,
                                                      layout.key_bits()));
    APIARY_CUDA_CHECK(cudaMemcpyAsync(level, values_b_.data(), static_cast<std::size_t>(count) * sizeof(index_t),
                                      cudaMemcpyDeviceToDevice));
  }

  detail::DeviceGraph g_;
  index_t n_;
  DeviceBuffer<index_t> queue_;
  DeviceBuffer<unsigned> mark_;
  DeviceBuffer<unsigned> parent_;
  DeviceBuffer<std::uint64_t> keys_a_;
  DeviceBuffer<std::uint64_t> keys_b_;
  DeviceBuffer<index_t> tail_;
  DeviceBuffer<unsigned long long> best_;
  DeviceBuffer<index_t> values_a_;  // two-pass sorts only
  DeviceBuffer<index_t> values_b_;
  DeviceBuffer<std::byte> temp_;
  MappedHostBuffer<index_t> readback_;  // pinned, for the per-level tail copy
  unsigned stamp_ = 0;
  index_t last_begin_ = 0, last_end_ = 0;
  bool force_two_pass_ = false;
  bool two_pass_used_ = false;
  std::size_t device_bytes_ = 0;
  std::size_t peak_bytes_ = 0;
};

}  // namespace

RcmGpuResult rcm_gpu(const sparse::Csr<double>& a, RcmVariant variant, Scheduler scheduler,
                     const RcmGpuOptions& options) {
  if (variant != RcmVariant::cub && variant != RcmVariant::tasks) throw std::invalid_argument("rcm_gpu: unknown variant");
  if (options.task_tile < 0 || options.task_tile > kMaxTaskTile)
    throw std::invalid_argument("rcm_gpu: task_tile must be 1.." + std::to_string(kMaxTaskTile) + " (0: " +
                                std::to_string(kMaxTaskTile) + "), got " + std::to_string(options.task_tile));
  const detail::PreparedGraph p = detail::prepare_graph(a);
  RcmGpuResult r;
  r.symmetrized = p.symmetrized;
  r.symmetrize_ms = p.symmetrize_ms;
  const index_t n = p.graph->rows;
  for (index_t s : options.start_nodes)
    if (s < 0 || s >= n)
      throw std::invalid_argument("rcm_gpu: start node " + std::to_string(s) + " outside 0.." + std::to_string(n - 1));
  if (n == 0) {
    if (!options.start_nodes.empty()) throw std::invalid_argument("rcm_gpu: start nodes given for an empty matrix");
    return r;
  }
  if (const auto reason = no_device_reason()) throw std::runtime_error("no GPU available (" + *reason + ")");

  APIARY_CUDA_CHECK(cudaDeviceSynchronize());  // earlier work is not ours to time
  if (variant == RcmVariant::tasks) {
    detail::rcm_tasks(*p.graph, scheduler, options, r);
    return r;
  }
  const auto t0 = std::chrono::steady_clock::now();
  DeviceEngine e(*p.graph, options.force_two_pass_sort);
  r.setup_ms = detail::ms_since(t0);
  drive_into(e, n, options.start_nodes, r);
  r.device_bytes = e.peak_device_bytes();
  return r;
}

}  // namespace apiary::rcm
