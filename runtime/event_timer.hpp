// Device-side timing with CUDA events: measures what ran on the stream, not host overhead.
#pragma once

#include <cuda_runtime_api.h>

#include "runtime/cuda_check.hpp"

namespace apiary {

class EventTimer {
 public:
  EventTimer() {
    APIARY_CUDA_CHECK(cudaEventCreate(&start_));
    APIARY_CUDA_CHECK(cudaEventCreate(&stop_));
  }
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;
  ~EventTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  void start(cudaStream_t stream = nullptr) { APIARY_CUDA_CHECK(cudaEventRecord(start_, stream)); }
  void stop(cudaStream_t stream = nullptr) { APIARY_CUDA_CHECK(cudaEventRecord(stop_, stream)); }
  // Waits for the stop event; milliseconds between the two events.
  float elapsed_ms() {
    APIARY_CUDA_CHECK(cudaEventSynchronize(stop_));
    float ms = 0;
    APIARY_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms;
  }

 private:
  cudaEvent_t start_{};
  cudaEvent_t stop_{};
};

}  // namespace apiary
