// Uploads from pageable host memory. One cudaMemcpy from pageable memory goes through
// the driver's staging at 6-8 GB/s on an H100 host (the 24 MB graph of poisson2d:1000
// took 3.1-3.8 ms, most of the RCM's set-up); pinning the source first costs more than
// it saves (session 22). Large uploads here go through the process's pinned buffers
// instead, filled by several host threads while the copy engine drains the ones before.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace apiary {

// From this size on, upload_to_device stages (below it, one cudaMemcpy). On an H200 host
// (16 cores, bench_upload, session 35) the staged path was 0.27-0.85x one cudaMemcpy from
// 0.5 to 4 MiB (waking the threads and polling the copies cost more than they save),
// 0.98x at 8 MiB, 1.23x at 16, 1.65x at 20, 3.5x at 24 and 4.8x at 96 MiB.
inline constexpr std::size_t kStagedUploadMin = std::size_t{16} << 20;

// Copies `bytes` from host memory at `src` to device memory at `dst` (the current
// device's) on `stream`, and returns once they have arrived. Pinned sources, small
// copies and hosts of fewer than 4 cores take one cudaMemcpyAsync. Thread-safe: concurrent calls
// share the staging buffers one after the other. Throws CudaError.
void upload_to_device(void* dst, const void* src, std::size_t bytes, cudaStream_t stream = nullptr);

namespace detail {
// The staged path of upload_to_device at any size, for bench_upload and the tests.
void staged_upload(void* dst, const void* src, std::size_t bytes, cudaStream_t stream = nullptr);
}  // namespace detail

}  // namespace apiary
