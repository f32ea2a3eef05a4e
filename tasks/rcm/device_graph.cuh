// The graph as both GPU engines of the RCM hold it (rcm_gpu.cu: `cub`, rcm_tasks.cu:
// `tasks`): CSR without self-loops on the device, each vertex's degree on the device, the
// largest degree, the vertex of least (degree, index) — the first component's start — and
// the degree of single vertices from the host matrix (the host driver needs it to spot
// isolated vertices). Internal to tasks/rcm.
#pragma once

#include <algorithm>
#include <span>
#include <vector>

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "runtime/cuda_check.hpp"
#include "runtime/device_buffer.hpp"
#include "sparse/formats.hpp"

namespace apiary::rcm::detail {

using sparse::index_t;

namespace {
__global__ void degree_kernel(const index_t* row_ptr, const index_t* col, index_t n, index_t* degree) {
  const std::int64_t v = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (v >= n) return;
  index_t d = 0;
  for (std::int64_t k = row_ptr[v]; k < row_ptr[v + 1]; ++k) d += col[k] != v;
  degree[v] = d;
}

// (degree << 32 | v): the minimum names the vertex of least (degree, index), the maximum
// holds the largest degree in its upper half.
struct DegreeKey {
  const index_t* degree;
  __device__ unsigned long long operator()(index_t v) const {
    return static_cast<unsigned long long>(static_cast<unsigned>(degree[v])) << 32 | static_cast<unsigned>(v);
  }
};

// The columns of each row without its self-loops, at the row's place in the loop-free CSR
// (starts: the exclusive sum of the degrees). Consecutive threads take consecutive rows,
// so both the reads and the writes are contiguous runs.
__global__ void drop_loops_kernel(const index_t* row_ptr, const index_t* col, index_t n, const index_t* new_ptr,
                                  index_t* new_col) {
  const std::int64_t v = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (v >= n) return;
  index_t at = new_ptr[v];
  for (std::int64_t k = row_ptr[v]; k < row_ptr[v + 1]; ++k)
    if (col[k] != v) new_col[at++] = col[k];
}

__global__ void reverse_kernel(const index_t* src, index_t size, index_t* dst) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < size) dst[i] = src[size - 1 - i];
}
}  // namespace

// A search's order src[0, size) reversed into host_end[-size, 0), through tmp (size
// entries of device memory): the engines' part of the final permutation (CmOrder).
inline void copy_reversed_to_host(const index_t* src, index_t size, index_t* tmp, index_t* host_end) {
  constexpr int threads = 256;
  reverse_kernel<<<static_cast<unsigned>((size + threads - 1) / threads), threads>>>(src, size, tmp);
  APIARY_CUDA_CHECK_LAUNCH();
  APIARY_CUDA_CHECK(cudaMemcpy(host_end - size, tmp, static_cast<std::size_t>(size) * sizeof(index_t),
                               cudaMemcpyDeviceToHost));
}

struct DeviceGraph {
  index_t n = 0;
  const sparse::Csr<double>* host = nullptr;  // outlives this
  DeviceBuffer<index_t> row_ptr;
  DeviceBuffer<index_t> col;
  DeviceBuffer<index_t> degree;
  index_t max_degree = 0;
  index_t least_degree_vertex = 0;  // least (degree, index): the first component's start

  explicit DeviceGraph(const sparse::Csr<double>& g)
      : n(g.rows),
        host(&g),
        row_ptr(std::span<const index_t>(g.row_ptr)),
        col(std::span<const index_t>(g.col)),
        degree(static_cast<std::size_t>(g.rows)) {
    setup_peak_bytes = bytes();
    if (n == 0) return;
    constexpr int threads = 256;
    const auto blocks = static_cast<unsigned>((n + threads - 1) / threads);
    degree_kernel<<<blocks, threads>>>(row_ptr.data(), col.data(), n, degree.data());
    APIARY_CUDA_CHECK_LAUNCH();
    // Self-loops are no edges of the RCM, yet every search loaded and skipped them: on a
    // mesh with its diagonal they are one column in 5 (2D) or 7 (3D), and they pushed the
    // widest levels of a 2D mesh over one pass of a Narrow task (tasks variant). The
    // loop-free rows start at the inclusive sum of the degrees, shifted by one.
    DeviceBuffer<index_t> new_ptr(static_cast<std::size_t>(n) + 1);
    // The vertex of least degree and the largest degree, not the n degrees: the host
    // driver asks for the degree of a few vertices only (degree(v) from the host matrix),
    // and a 4 MB download cost 2 ms of a 10^6-vertex set-up. One download brings these
    // and the loop-free edge count.
    const auto keys = thrust::make_transform_iterator(thrust::counting_iterator<index_t>(0), DegreeKey{degree.data()});
    DeviceBuffer<unsigned long long> out(2);
    std::size_t scan_bytes = 0, min_bytes = 0, max_bytes = 0;
    APIARY_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, scan_bytes, degree.data(), new_ptr.data() + 1, n));
    APIARY_CUDA_CHECK(cub::DeviceReduce::Min(nullptr, min_bytes, keys, out.data(), n));
    APIARY_CUDA_CHECK(cub::DeviceReduce::Max(nullptr, max_bytes, keys, out.data() + 1, n));
    DeviceBuffer<unsigned char> temp(std::max<std::size_t>({scan_bytes, min_bytes, max_bytes, 1}));
    APIARY_CUDA_CHECK(cudaMemsetAsync(new_ptr.data(), 0, sizeof(index_t)));
    APIARY_CUDA_CHECK(cub::DeviceScan::InclusiveSum(temp.data(), scan_bytes, degree.data(), new_ptr.data() + 1, n));
    APIARY_CUDA_CHECK(cub::DeviceReduce::Min(temp.data(), min_bytes, keys, out.data(), n));
    APIARY_CUDA_CHECK(cub::DeviceReduce::Max(temp.data(), max_bytes, keys, out.data() + 1, n));
    unsigned long long h[2] = {0, 0};
    APIARY_CUDA_CHECK(cudaMemcpy(h, out.data(), 2 * sizeof h[0], cudaMemcpyDeviceToHost));
    index_t edges = 0;
    APIARY_CUDA_CHECK(cudaMemcpy(&edges, new_ptr.data() + n, sizeof edges, cudaMemcpyDeviceToHost));
    least_degree_vertex = static_cast<index_t>(h[0] & 0xffffffffu);
    max_degree = static_cast<index_t>(h[1] >> 32);
    if (static_cast<std::size_t>(edges) == g.col.size()) return;  // no self-loops
    DeviceBuffer<index_t> new_col(std::max<std::size_t>(static_cast<std::size_t>(edges), 1));
    setup_peak_bytes = bytes() + new_ptr.bytes() + new_col.bytes();  // the columns twice, for a moment
    drop_loops_kernel<<<blocks, threads>>>(row_ptr.data(), col.data(), n, new_ptr.data(), new_col.data());
    APIARY_CUDA_CHECK_LAUNCH();
    row_ptr = std::move(new_ptr);
    col = std::move(new_col);
  }

  std::size_t bytes() const { return row_ptr.bytes() + col.bytes() + degree.bytes(); }
  std::size_t setup_peak_bytes = 0;  // while the loop-free graph is built
};

}  // namespace apiary::rcm::detail
