// CUDA error checking. Every runtime API call goes through APIARY_CUDA_CHECK so a
// failure names the call and where it was made.
#pragma once

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace apiary {

// A CUDA runtime call failed. what(): "<call> failed: <error name> (<description>) at <file>:<line>".
class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, const char* call, const char* file, int line)
      : std::runtime_error(std::string(call) + " failed: " + cudaGetErrorName(code) + " (" +
                           cudaGetErrorString(code) + ") at " + file + ":" + std::to_string(line)),
        code_(code) {}
  cudaError_t code() const { return code_; }

 private:
  cudaError_t code_;
};

// On failure the thread's last-error state is cleared before the throw: the runtime
// records a failed call's error there too, and a caller that handles the exception would
// otherwise see it again at its next launch check (APIARY_CUDA_CHECK_LAUNCH), blamed on
// an innocent kernel. A sticky error (the context is lost) stays whatever is done here.
inline void cuda_check(cudaError_t code, const char* call, const char* file, int line) {
  if (code == cudaSuccess) return;
  (void)cudaGetLastError();
  throw CudaError(code, call, file, line);
}

}  // namespace apiary

#define APIARY_CUDA_CHECK(call) ::apiary::cuda_check((call), #call, __FILE__, __LINE__)
// After a kernel launch: launch-configuration errors surface here, not at the next sync.
#define APIARY_CUDA_CHECK_LAUNCH() ::apiary::cuda_check(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)
