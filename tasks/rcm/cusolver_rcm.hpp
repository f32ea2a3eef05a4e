// Baseline: cuSOLVER's RCM, cusolverSpXcsrsymrcmHost. Despite the library it runs on the
// host, on one CPU thread (its "Host" suffix); it is what the GPU RCM is compared with.
#pragma once

#include <vector>

#include "sparse/formats.hpp"

namespace apiary::rcm {

struct CusolverRcmResult {
  std::vector<sparse::index_t> perm;  // perm[new] = old, as A(p, p) in cuSOLVER's terms
  double ms = 0;                      // the cusolverSpXcsrsymrcmHost call alone
};

// a must be square; an unsymmetric pattern is symmetrized first (A + A^T), untimed.
// Needs the CUDA driver (the cuSOLVER handle); throws std::runtime_error on failure.
CusolverRcmResult cusolver_rcm(const sparse::Csr<double>& a);

}  // namespace apiary::rcm
