// String building for messages in headers that nvcc compiles. (fmt's compile-time
// format checks do not survive nvcc's host pass, so .cu-visible code uses this.)
#pragma once

#include <iomanip>
#include <sstream>
#include <string>

namespace apiary {

template <class... Args>
std::string cat(const Args&... args) {
  std::ostringstream out;
  out << std::setprecision(4);
  (out << ... << args);
  return out.str();
}

}  // namespace apiary
