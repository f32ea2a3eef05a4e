// The cuSOLVER sparse (cusolverSp) API is deprecated in favour of cuDSS, which has no
// RCM; the baseline keeps using it, with the deprecation attributes switched off here.
#define DISABLE_CUSOLVER_DEPRECATED
#include <cusolverSp.h>
#include <cusparse.h>

#include <chrono>
#include <stdexcept>
#include <string>

#include "tasks/rcm/cusolver_rcm.hpp"
#include "tasks/rcm/prepare.hpp"

namespace apiary::rcm {

namespace {

void check(cusolverStatus_t s, const char* call) {
  if (s != CUSOLVER_STATUS_SUCCESS)
    throw std::runtime_error(std::string(call) + " failed with cusolverStatus_t " + std::to_string(static_cast<int>(s)));
}

void check(cusparseStatus_t s, const char* call) {
  if (s != CUSPARSE_STATUS_SUCCESS)
    throw std::runtime_error(std::string(call) + " failed: " + cusparseGetErrorString(s));
}

// Owners of the handle and the descriptor, so that an exception frees both.
struct Handles {
  cusolverSpHandle_t solver = nullptr;
  cusparseMatDescr_t descr = nullptr;
  Handles() {
    check(cusolverSpCreate(&solver), "cusolverSpCreate");
    check(cusparseCreateMatDescr(&descr), "cusparseCreateMatDescr");
    check(cusparseSetMatType(descr, CUSPARSE_MATRIX_TYPE_GENERAL), "cusparseSetMatType");
    check(cusparseSetMatIndexBase(descr, CUSPARSE_INDEX_BASE_ZERO), "cusparseSetMatIndexBase");
  }
  Handles(const Handles&) = delete;
  Handles& operator=(const Handles&) = delete;
  ~Handles() {
    if (descr != nullptr) cusparseDestroyMatDescr(descr);
    if (solver != nullptr) cusolverSpDestroy(solver);
  }
};

}  // namespace

CusolverRcmResult cusolver_rcm(const sparse::Csr<double>& a) {
  const detail::PreparedGraph p = detail::prepare_graph(a);
  const sparse::Csr<double>& g = *p.graph;
  CusolverRcmResult r;
  r.perm.resize(static_cast<std::size_t>(g.rows));
  if (g.rows == 0) return r;
  if (g.nnz() == 0) {
    // No edge: every order is as good; cuSOLVER refuses an empty pattern
    // (CUSOLVER_STATUS_INVALID_VALUE, seen on the H200), so answer as it would.
    for (sparse::index_t i = 0; i < g.rows; ++i) r.perm[i] = i;
    return r;
  }
  Handles h;
  const auto t0 = std::chrono::steady_clock::now();
  check(cusolverSpXcsrsymrcmHost(h.solver, g.rows, static_cast<int>(g.nnz()), h.descr, g.row_ptr.data(), g.col.data(), r.perm.data()),
        "cusolverSpXcsrsymrcmHost");
  r.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace apiary::rcm
