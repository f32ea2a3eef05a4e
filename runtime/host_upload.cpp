#include "runtime/host_upload.hpp"

#include <algorithm>
#include <barrier>
#include <cstring>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include "runtime/cuda_check.hpp"

namespace apiary {

namespace {

// Two staging buffers of this size: a 24 MB upload is six chunks, so the copy engine
// drains one while the host threads fill the other for all but the last.
constexpr std::size_t kChunk = std::size_t{4} << 20;

// Pinned for every context (portable), allocated on the first large upload and kept
// for the process: a cudaHostAlloc of this size costs about as much as the upload saves.
struct Staging {
  std::mutex lock;
  unsigned char* buffer[2] = {nullptr, nullptr};
  ~Staging() {
    for (unsigned char* b : buffer)
      if (b != nullptr) cudaFreeHost(b);  // at exit: errors are of no use any more
  }
};

Staging& staging() {
  static Staging s;
  return s;
}

int staging_threads() {
  const unsigned cores = std::thread::hardware_concurrency();
  return static_cast<int>(std::clamp(cores / 2, 1u, 8u));
}

bool is_pinned(const void* p) {
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    (void)cudaGetLastError();  // not an error of the upload
    return false;
  }
  return a.type == cudaMemoryTypeHost;
}

}  // namespace

void upload_to_device(void* dst, const void* src, std::size_t bytes, cudaStream_t stream) {
  if (bytes == 0) return;
  const int threads = staging_threads();
  if (bytes < kStagedUploadMin || threads < 2 || is_pinned(src)) {
    APIARY_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream));
    APIARY_CUDA_CHECK(cudaStreamSynchronize(stream));
    return;
  }
  Staging& s = staging();
  std::lock_guard<std::mutex> guard(s.lock);
  for (unsigned char*& b : s.buffer)
    if (b == nullptr) APIARY_CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&b), kChunk, cudaHostAllocPortable));
  struct Events {
    cudaEvent_t e[2] = {nullptr, nullptr};
    ~Events() {
      for (cudaEvent_t x : e)
        if (x != nullptr) cudaEventDestroy(x);
    }
  } events;
  cudaEvent_t* drained = events.e;  // drained[i]: the copy out of buffer i is done
  for (int i = 0; i < 2; ++i) APIARY_CUDA_CHECK(cudaEventCreateWithFlags(&drained[i], cudaEventDisableTiming));

  // Chunk c goes through buffer c % 2. Every thread copies its slice of a chunk between
  // two barriers; this thread then starts the chunk's copy to the device. The CUDA calls
  // stay on this thread (the current device is per thread). An error stops the CUDA
  // calls but not the loop: the other threads wait at the barriers for every chunk.
  const std::size_t chunks = (bytes + kChunk - 1) / kChunk;
  const auto* from = static_cast<const unsigned char*>(src);
  auto* to = static_cast<unsigned char*>(dst);
  std::barrier filling(threads), filled(threads);
  auto copy_slice = [&](std::size_t c, int t) {
    const std::size_t begin = c * kChunk, length = std::min(kChunk, bytes - begin);
    const std::size_t a = length * static_cast<std::size_t>(t) / static_cast<std::size_t>(threads);
    const std::size_t b = length * static_cast<std::size_t>(t + 1) / static_cast<std::size_t>(threads);
    std::memcpy(s.buffer[c % 2] + a, from + begin + a, b - a);
  };
  std::vector<std::jthread> helpers;
  helpers.reserve(static_cast<std::size_t>(threads - 1));
  try {
    for (int t = 1; t < threads; ++t)
      helpers.emplace_back([&, t] {
        for (std::size_t c = 0; c < chunks; ++c) {
          filling.arrive_and_wait();
          copy_slice(c, t);
          filled.arrive_and_wait();
        }
      });
  } catch (const std::system_error&) {
    // A thread could not start: this one copies its slices, and arrives for it no more.
    for (int t = 1 + static_cast<int>(helpers.size()); t < threads; ++t) {
      filling.arrive_and_drop();
      filled.arrive_and_drop();
    }
  }
  const int started = 1 + static_cast<int>(helpers.size());
  cudaError_t error = cudaSuccess;
  for (std::size_t c = 0; c < chunks; ++c) {
    if (c >= 2 && error == cudaSuccess) error = cudaEventSynchronize(drained[c % 2]);
    filling.arrive_and_wait();
    // Slice 0, and the slices of helpers that could not start (none, normally).
    for (int t = 0; t < threads; t = t == 0 ? started : t + 1) copy_slice(c, t);
    filled.arrive_and_wait();
    const std::size_t begin = c * kChunk, length = std::min(kChunk, bytes - begin);
    if (error == cudaSuccess)
      error = cudaMemcpyAsync(to + begin, s.buffer[c % 2], length, cudaMemcpyHostToDevice, stream);
    if (error == cudaSuccess) error = cudaEventRecord(drained[c % 2], stream);
  }
  helpers.clear();  // joins
  if (error == cudaSuccess) error = cudaStreamSynchronize(stream);
  cuda_check(error, "staged upload (cudaMemcpyAsync, cudaEventRecord or cudaEventSynchronize)", __FILE__, __LINE__);
}

}  // namespace apiary
