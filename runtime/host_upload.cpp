#include "runtime/host_upload.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include "runtime/cuda_check.hpp"

namespace apiary {

namespace {

// What one thread copies at a time, what one cudaMemcpyAsync sends, and how many pinned
// buffers of that size the copy engine and the host threads share: while the engine
// drains a buffer, the threads fill the next three, so the first copy starts after one
// piece per thread has been copied, not after a whole buffer.
constexpr std::size_t kPiece = std::size_t{256} << 10;
constexpr std::size_t kChunk = std::size_t{2} << 20;
constexpr std::size_t kPiecesPerChunk = kChunk / kPiece;
constexpr int kBuffers = 4;

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

// The process's stager: pinned buffers and helper threads, made by the first staged
// upload and kept until exit (a cudaHostAlloc of the buffers, or starting the threads,
// costs about as much as an upload saves). One upload at a time; the calling thread
// copies pieces too, and it alone makes the CUDA calls (the current device is per
// thread).
//
// The pieces of an upload are taken in order from one counter. Piece p goes to buffer
// (p / kPiecesPerChunk) % kBuffers, so it may be copied only once the copy out of that
// buffer's previous chunk has finished: `allowed_` is the number of pieces whose buffer
// is free, raised by the caller as it sees those copies end. filled_[b] counts the bytes
// of buffer b's current chunk copied so far; the caller sends the chunk when it is whole.
class Stager {
 public:
  explicit Stager(int threads) {
    for (auto& b : buffer_) APIARY_CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&b), kChunk, cudaHostAllocPortable));
    try {
      for (int t = 1; t < threads; ++t) helpers_.emplace_back([this] { serve(); });
    } catch (const std::system_error&) {
      // Fewer helpers (none at worst): the caller copies what they would have.
    }
  }
  Stager(const Stager&) = delete;
  Stager& operator=(const Stager&) = delete;
  ~Stager() {
    stop_.store(true, std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_release);
    generation_.notify_all();
    helpers_.clear();  // joins
    for (unsigned char* b : buffer_) cudaFreeHost(b);  // at exit: errors are of no use any more
  }

  void upload(unsigned char* dst, const unsigned char* src, std::size_t bytes, cudaStream_t stream) {
    std::lock_guard<std::mutex> guard(lock_);
    // Events of the caller's current device, made per upload: the stream may be another
    // device's than the last upload's (the buffers are portable).
    struct Events {
      cudaEvent_t e[kBuffers] = {};
      ~Events() {
        for (cudaEvent_t x : e)
          if (x != nullptr) cudaEventDestroy(x);
      }
    } events;
    cudaEvent_t* copied = events.e;  // copied[b]: the copy out of buffer b is done
    for (int b = 0; b < kBuffers; ++b) APIARY_CUDA_CHECK(cudaEventCreateWithFlags(&copied[b], cudaEventDisableTiming));
    const std::size_t chunks = (bytes + kChunk - 1) / kChunk;
    src_ = src;
    bytes_ = bytes;
    pieces_ = (bytes + kPiece - 1) / kPiece;
    failed_.store(false, std::memory_order_relaxed);
    next_piece_.store(0, std::memory_order_relaxed);
    for (auto& f : filled_) f.store(0, std::memory_order_relaxed);
    allowed_.store(std::min(pieces_, kBuffers * kPiecesPerChunk), std::memory_order_relaxed);
    in_job_.store(static_cast<int>(helpers_.size()), std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_release);  // publishes the job above
    generation_.notify_all();

    cudaError_t error = cudaSuccess;
    std::size_t sent = 0, drained = 0;  // chunks sent to the device; of them, known finished
    while (sent < chunks && error == cudaSuccess) {
      const int b = static_cast<int>(sent % kBuffers);
      const std::size_t length = std::min(kChunk, bytes - sent * kChunk);
      // (Until its buffer's previous chunk has drained, filled_[b] still counts that one.)
      if (sent < drained + kBuffers && filled_[b].load(std::memory_order_acquire) == length) {
        error = cudaMemcpyAsync(dst + sent * kChunk, buffer_[b], length, cudaMemcpyHostToDevice, stream);
        if (error == cudaSuccess) error = cudaEventRecord(copied[b], stream);
        ++sent;
        continue;
      }
      if (drained < sent) {
        const cudaError_t q = cudaEventQuery(copied[drained % kBuffers]);
        if (q == cudaSuccess) {
          filled_[drained % kBuffers].store(0, std::memory_order_relaxed);
          ++drained;
          allowed_.store(std::min(pieces_, (drained + kBuffers) * kPiecesPerChunk), std::memory_order_release);
          allowed_.notify_all();
          continue;
        }
        if (q != cudaErrorNotReady) {
          error = q;
          break;
        }
      }
      // Help with a piece the helpers have not taken, if its buffer is free; never wait
      // for one here, since only this thread frees buffers.
      std::size_t p = next_piece_.load(std::memory_order_relaxed);
      if (p < allowed_.load(std::memory_order_acquire) &&
          next_piece_.compare_exchange_strong(p, p + 1, std::memory_order_relaxed))
        copy_piece(p);
    }
    if (error != cudaSuccess) {
      // Let the helpers run out of pieces without copying any more of them.
      failed_.store(true, std::memory_order_relaxed);
      allowed_.store(pieces_, std::memory_order_release);
      allowed_.notify_all();
    }
    // Every piece is taken before its chunk is sent, so the helpers are on their way out.
    for (int left = in_job_.load(std::memory_order_acquire); left != 0; left = in_job_.load(std::memory_order_acquire))
      in_job_.wait(left, std::memory_order_acquire);
    if (error == cudaSuccess) error = cudaStreamSynchronize(stream);
    cuda_check(error, "staged upload (cudaMemcpyAsync, cudaEventRecord, cudaEventQuery or cudaStreamSynchronize)",
               __FILE__, __LINE__);
  }

 private:
  void copy_piece(std::size_t p) {
    const std::size_t begin = p * kPiece, length = std::min(kPiece, bytes_ - begin);
    const std::size_t chunk = begin / kChunk;
    const int b = static_cast<int>(chunk % kBuffers);
    if (!failed_.load(std::memory_order_relaxed)) std::memcpy(buffer_[b] + (begin - chunk * kChunk), src_ + begin, length);
    filled_[b].fetch_add(length, std::memory_order_release);
  }

  void serve() {
    std::uint64_t seen = 0;
    while (true) {
      generation_.wait(seen, std::memory_order_acquire);
      seen = generation_.load(std::memory_order_acquire);
      if (stop_.load(std::memory_order_relaxed)) return;
      for (std::size_t p = next_piece_.fetch_add(1, std::memory_order_relaxed); p < pieces_;
           p = next_piece_.fetch_add(1, std::memory_order_relaxed)) {
        for (std::size_t a = allowed_.load(std::memory_order_acquire); p >= a; a = allowed_.load(std::memory_order_acquire))
          allowed_.wait(a, std::memory_order_acquire);
        copy_piece(p);
      }
      if (in_job_.fetch_sub(1, std::memory_order_acq_rel) == 1) in_job_.notify_one();
    }
  }

  std::mutex lock_;
  unsigned char* buffer_[kBuffers] = {};
  // The current job, written by the caller before generation_ is raised.
  const unsigned char* src_ = nullptr;
  std::size_t bytes_ = 0;
  std::size_t pieces_ = 0;
  std::atomic<bool> failed_{false};
  std::atomic<std::size_t> next_piece_{0};
  std::atomic<std::size_t> allowed_{0};
  std::atomic<std::size_t> filled_[kBuffers] = {};
  std::atomic<int> in_job_{0};  // helpers not yet done with the current job
  std::atomic<std::uint64_t> generation_{0};
  std::atomic<bool> stop_{false};
  std::vector<std::jthread> helpers_;  // last: joined before the rest is destroyed
};

Stager& stager(int threads) {
  static Stager s(threads);
  return s;
}

}  // namespace

namespace detail {
void staged_upload(void* dst, const void* src, std::size_t bytes, cudaStream_t stream) {
  if (bytes == 0) return;
  stager(staging_threads())
      .upload(static_cast<unsigned char*>(dst), static_cast<const unsigned char*>(src), bytes, stream);
}
}  // namespace detail

void upload_to_device(void* dst, const void* src, std::size_t bytes, cudaStream_t stream) {
  if (bytes == 0) return;
  if (bytes < kStagedUploadMin || staging_threads() < 2 || is_pinned(src)) {
    APIARY_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream));
    APIARY_CUDA_CHECK(cudaStreamSynchronize(stream));
    return;
  }
  detail::staged_upload(dst, src, bytes, stream);
}

}  // namespace apiary
