// The graph as both GPU engines of the RCM hold it (rcm_gpu.cu: `cub`, rcm_tasks.cu:
// `tasks`): CSR on the device, each vertex's degree without self-loops on the device, the
// largest degree, and the degree of single vertices from the host matrix (the host driver
// needs it to spot isolated vertices). Internal to tasks/rcm.
#pragma once

#include <algorithm>
#include <span>
#include <vector>

#include <cub/device/device_reduce.cuh>

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

  explicit DeviceGraph(const sparse::Csr<double>& g)
      : n(g.rows),
        host(&g),
        row_ptr(std::span<const index_t>(g.row_ptr)),
        col(std::span<const index_t>(g.col)),
        degree(static_cast<std::size_t>(g.rows)) {
    constexpr int threads = 256;
    degree_kernel<<<static_cast<unsigned>((n + threads - 1) / threads), threads>>>(row_ptr.data(), col.data(), n,
                                                                                  degree.data());
    APIARY_CUDA_CHECK_LAUNCH();
    // The largest degree, not the n degrees: the host driver asks for the degree of a few
    // vertices only (degree_of), and a 4 MB download cost 2 ms of a 10^6-vertex set-up.
    DeviceBuffer<index_t> largest(1);
    std::size_t bytes = 0;
    APIARY_CUDA_CHECK(cub::DeviceReduce::Max(nullptr, bytes, degree.data(), largest.data(), n));
    DeviceBuffer<unsigned char> temp(std::max<std::size_t>(bytes, 1));
    APIARY_CUDA_CHECK(cub::DeviceReduce::Max(temp.data(), bytes, degree.data(), largest.data(), n));
    max_degree = std::max<index_t>(0, largest.to_host()[0]);
  }


  std::size_t bytes() const { return row_ptr.bytes() + col.bytes() + degree.bytes(); }
};

}  // namespace apiary::rcm::detail
