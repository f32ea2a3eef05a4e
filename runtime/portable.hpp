// Helpers for code that compiles both for the device (nvcc) and for the host (g++),
// so that the concurrent protocols can be stress-tested with CPU threads in CI.
#pragma once

#include <cuda/atomic>

#include <cstddef>

#if defined(__CUDACC__)
#define APIARY_HD __host__ __device__
#define APIARY_DEVICE __device__
#else
#define APIARY_HD
#define APIARY_DEVICE
#endif

// `#pragma unroll` in code that both compilers see: g++ (also nvcc's host pass) warns
// about the pragma it does not know; only the device pass gets it.
#if defined(__CUDA_ARCH__)
#define APIARY_UNROLL _Pragma("unroll")
#else
#define APIARY_UNROLL
#endif

namespace apiary {

// `bytes` rounded up to a multiple of 16 (the alignment of staged items and task shared
// memory).
constexpr std::size_t align16(std::size_t bytes) { return (bytes + 15) / 16 * 16; }

// Device-scope atomic view of plain memory (libcu++): the runtime's counters live in
// ordinary device allocations and are accessed atomically only where it matters.
template <class T>
using atomic_ref = cuda::atomic_ref<T, cuda::thread_scope_device>;

// Spin-loop pause: nanosleep on the device keeps spinning warps off the issue slots.
APIARY_HD inline void spin_pause() {
#if defined(__CUDA_ARCH__)
  __nanosleep(64);
#endif
}

}  // namespace apiary
