// The graph as both GPU engines of the RCM hold it (rcm_gpu.cu: `cub`, rcm_tasks.cu:
// `tasks`): CSR on the device, and each vertex's degree without self-loops, on the device
// and on the host (the host driver needs it to spot isolated vertices). Internal to
// tasks/rcm.
#pragma once

#include <algorithm>
#include <span>
#include <vector>

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
}  // namespace

struct DeviceGraph {
  index_t n = 0;
  DeviceBuffer<index_t> row_ptr;
  DeviceBuffer<index_t> col;
  DeviceBuffer<index_t> degree;
  std::vector<index_t> host_degree;
  index_t max_degree = 0;

  explicit DeviceGraph(const sparse::Csr<double>& g)
      : n(g.rows),
        row_ptr(std::span<const index_t>(g.row_ptr)),
        col(std::span<const index_t>(g.col)),
        degree(static_cast<std::size_t>(g.rows)) {
    constexpr int threads = 256;
    degree_kernel<<<static_cast<unsigned>((n + threads - 1) / threads), threads>>>(row_ptr.data(), col.data(), n,
                                                                                  degree.data());
    APIARY_CUDA_CHECK_LAUNCH();
    host_degree = degree.to_host();
    for (index_t d : host_degree) max_degree = std::max(max_degree, d);
  }

  std::size_t bytes() const { return row_ptr.bytes() + col.bytes() + degree.bytes(); }
};

}  // namespace apiary::rcm::detail
