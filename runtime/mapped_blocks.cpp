#include "runtime/mapped_blocks.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <bit>
#include <iterator>
#include <mutex>
#include <utility>
#include <vector>

#include "runtime/cuda_check.hpp"

namespace apiary::detail {

namespace {

constexpr std::size_t kSmallest = 256;
constexpr std::size_t kKept = 64;  // blocks the cache holds at most (a few Runtimes' worth)

std::size_t size_class(std::size_t bytes) { return std::bit_ceil(std::max(bytes, kSmallest)); }

struct Cache {
  std::mutex mutex;
  std::vector<std::pair<std::size_t, void*>> free;  // (size class, block)
};

// Never destroyed: blocks still cached at exit go with the process (freeing them from a
// static destructor could run after the CUDA runtime has unloaded).
Cache& cache() {
  static Cache* c = new Cache;
  return *c;
}

}  // namespace

void* take_mapped_block(std::size_t bytes) {
  const std::size_t size = size_class(bytes);
  {
    Cache& c = cache();
    const std::lock_guard lock(c.mutex);
    // The block given back last first.
    for (auto it = c.free.rbegin(); it != c.free.rend(); ++it)
      if (it->first == size) {
        void* block = it->second;
        c.free.erase(std::next(it).base());
        return block;
      }
  }
  void* block = nullptr;
  // Portable: the block stays pinned for every device's context, as a cached block may
  // serve a Runtime on another device than the one it was first taken for.
  APIARY_CUDA_CHECK(cudaHostAlloc(&block, size, cudaHostAllocMapped | cudaHostAllocPortable));
  return block;
}

void give_mapped_block(void* block, std::size_t bytes) noexcept {
  if (block == nullptr) return;
  Cache& c = cache();
  {
    const std::lock_guard lock(c.mutex);
    if (c.free.size() < kKept) {
      c.free.emplace_back(size_class(bytes), block);
      return;
    }
  }
  cudaFreeHost(block);
}

}  // namespace apiary::detail
