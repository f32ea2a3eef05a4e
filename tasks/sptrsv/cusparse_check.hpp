// cuSPARSE status checking, in the style of runtime/cuda_check.hpp. It lives with the
// tasks because runtime/ knows nothing about cuSPARSE; any task folder that calls
// cuSPARSE may include it (and link CUDA::cusparse).
#pragma once

#include <cusparse.h>

#include <stdexcept>
#include <string>

namespace apiary {

// A cuSPARSE call failed. what(): "<call> failed: <status name> (<description>) at <file>:<line>".
class CusparseError : public std::runtime_error {
 public:
  CusparseError(cusparseStatus_t status, const char* call, const char* file, int line)
      : std::runtime_error(std::string(call) + " failed: " + cusparseGetErrorName(status) + " (" +
                           cusparseGetErrorString(status) + ") at " + file + ":" + std::to_string(line)),
        status_(status) {}
  cusparseStatus_t status() const { return status_; }

 private:
  cusparseStatus_t status_;
};

inline void cusparse_check(cusparseStatus_t status, const char* call, const char* file, int line) {
  if (status != CUSPARSE_STATUS_SUCCESS) throw CusparseError(status, call, file, line);
}

}  // namespace apiary

#define APIARY_CUSPARSE_CHECK(call) ::apiary::cusparse_check((call), #call, __FILE__, __LINE__)
