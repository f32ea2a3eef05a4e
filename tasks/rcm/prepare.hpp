// Input handling shared by the GPU RCM and its host emulation: the square check and the
// symmetrization of an unsymmetric pattern. Internal to tasks/rcm.
#pragma once

#include <chrono>
#include <stdexcept>
#include <string>

#include "sparse/formats.hpp"
#include "sparse/transform.hpp"

namespace apiary::rcm::detail {

struct PreparedGraph {
  sparse::Csr<double> owned;  // A + A^T when symmetrized, else empty
  const sparse::Csr<double>* graph = nullptr;
  bool symmetrized = false;
  double symmetrize_ms = 0;
};

inline PreparedGraph prepare_graph(const sparse::Csr<double>& a) {
  if (a.rows != a.cols)
    throw std::invalid_argument("rcm_gpu: the matrix must be square, got " + std::to_string(a.rows) + " x " +
                                std::to_string(a.cols));
  PreparedGraph p;
  p.graph = &a;
  if (!sparse::is_pattern_symmetric(a)) {
    const auto t0 = std::chrono::steady_clock::now();
    p.owned = sparse::symmetrize_pattern(a);
    p.symmetrize_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    p.graph = &p.owned;
    p.symmetrized = true;
  }
  return p;
}

}  // namespace apiary::rcm::detail
