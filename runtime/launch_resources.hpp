// Host-side resources of the schedulers, kept across runs. For those that launch kernels
// from a host loop (timesliced) or run a watchdog guard kernel beside their own
// (timesliced, controller): non-blocking streams, events without timing, a
// high-priority stream for the guard, and a few words of mapped pinned host memory that
// the device writes (a round's snapshot) and reads (the host's request to stop the
// guard). For the megakernel: its timer and its grid size, so that a run makes no
// calls to create events or to query occupancy. A Runtime owns one; everything is
// created on first use and kept for the next runs.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include "runtime/cuda_check.hpp"
#include "runtime/device_buffer.hpp"
#include "runtime/event_timer.hpp"

namespace apiary {

class LaunchResources {
 public:
  LaunchResources() = default;
  LaunchResources(const LaunchResources&) = delete;
  LaunchResources& operator=(const LaunchResources&) = delete;
  LaunchResources(LaunchResources&& other) noexcept { swap(other); }
  LaunchResources& operator=(LaunchResources&& other) noexcept {
    if (this != &other) {
      release();
      swap(other);
    }
    return *this;
  }
  ~LaunchResources() { release(); }

  // Stream i, non-blocking: neither it nor the legacy default stream waits for the other.
  cudaStream_t stream(std::size_t i) {
    while (streams_.size() <= i) {
      cudaStream_t s = nullptr;
      APIARY_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
      streams_.push_back(s);
    }
    return streams_[i];
  }
  // Event i, without timing (the cheapest kind for cross-stream waits).
  cudaEvent_t event(std::size_t i) {
    while (events_.size() <= i) {
      cudaEvent_t e = nullptr;
      APIARY_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
      events_.push_back(e);
    }
    return events_[i];
  }
  // A non-blocking stream of the greatest priority: the block scheduler serves its
  // pending blocks first, so the guard gets onto the device before queued workers.
  cudaStream_t guard_stream() {
    if (guard_ == nullptr) {
      int least = 0, greatest = 0;
      APIARY_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
      APIARY_CUDA_CHECK(cudaStreamCreateWithPriority(&guard_, cudaStreamNonBlocking, greatest));
    }
    return guard_;
  }
  // `count` words of mapped pinned host memory (contents unspecified until written).
  unsigned long long* host_words(std::size_t count) {
    if (!words_ || words_->size() < count) words_ = std::make_unique<MappedHostBuffer<unsigned long long>>(count);
    return words_->host();
  }
  // The device's pointer to the same words (call host_words first).
  unsigned long long* device_words() { return words_ ? words_->device() : nullptr; }

  // A timer of the run's own (two timing events).
  EventTimer& timer() {
    if (!timer_) timer_ = std::make_unique<EventTimer>();
    return *timer_;
  }
  // The megakernel's grid for this runtime (its program and options do not change), once
  // computed; 0 before.
  int megakernel_blocks = 0;

  // Waits for every stream created here, ignoring errors (for clean-up paths).
  void synchronize_all() noexcept {
    for (cudaStream_t s : streams_) static_cast<void>(cudaStreamSynchronize(s));
    if (guard_ != nullptr) static_cast<void>(cudaStreamSynchronize(guard_));
  }

 private:
  void swap(LaunchResources& other) noexcept {
    std::swap(streams_, other.streams_);
    std::swap(events_, other.events_);
    std::swap(guard_, other.guard_);
    std::swap(words_, other.words_);
    std::swap(timer_, other.timer_);
    std::swap(megakernel_blocks, other.megakernel_blocks);
  }
  void release() noexcept {  // no throw from a destructor; errors at exit are ignored
    // Work still queued on these streams may use the mapped words, whose block goes back
    // to the process's cache (runtime/mapped_blocks.hpp) for the next taker to write.
    synchronize_all();
    for (cudaStream_t s : streams_) static_cast<void>(cudaStreamDestroy(s));
    for (cudaEvent_t e : events_) static_cast<void>(cudaEventDestroy(e));
    if (guard_ != nullptr) static_cast<void>(cudaStreamDestroy(guard_));
    streams_.clear();
    events_.clear();
    guard_ = nullptr;
    words_.reset();
    timer_.reset();
    megakernel_blocks = 0;
  }

  std::vector<cudaStream_t> streams_;
  std::vector<cudaEvent_t> events_;
  cudaStream_t guard_ = nullptr;
  std::unique_ptr<MappedHostBuffer<unsigned long long>> words_;
  std::unique_ptr<EventTimer> timer_;
};

}  // namespace apiary
