// The two GPU triangular solvers the TASSL solve is compared with:
//
// - SyncFreeSolver: the synchronization-free CSR solve after Liu et al. ("A
//   synchronization-free algorithm for parallel sparse triangular solves", Euro-Par 2016):
//   one warp per row, rows handed out in increasing order by a global ticket, each warp
//   spinning on the ready flags of the rows it needs. No analysis beyond the upload.
// - CusparseSolver: cuSPARSE's generic SpSV (cusparseSpSV_analysis once, then
//   cusparseSpSV_solve per right-hand side).
//
// Both take a lower-triangular Csr<double> (square, sorted rows, every diagonal entry
// stored and nonzero; the diagonal is therefore the last entry of its row), copy it to
// the device converted to Real (float or double), and solve L X = B for `rhs`
// right-hand sides stored column-major in device memory (column c at b + c * rows()).
// solve() is asynchronous on `stream`; b and x must not overlap.
//
// The constructors check the matrix again (std::invalid_argument for a non-square
// matrix, an entry above the diagonal or a missing diagonal; sparse::SingularError for a
// diagonal that is zero once converted to Real): the sync-free kernel would wait forever
// on an entry above the diagonal, so a bad matrix must never reach it.
//
// Host-includable: no CUDA syntax here; the device code and cuSPARSE stay in the .cu
// files (pimpl). Explicit instantiations exist for float and double only.
#pragma once

#include <cuda_runtime_api.h>

#include <memory>
#include <vector>

#include "sparse/formats.hpp"

namespace apiary::sptrsv {

template <class Real>
class SyncFreeSolver {
 public:
  explicit SyncFreeSolver(const sparse::Csr<double>& lower);
  SyncFreeSolver(SyncFreeSolver&&) noexcept;
  SyncFreeSolver& operator=(SyncFreeSolver&&) noexcept;
  SyncFreeSolver(const SyncFreeSolver&) = delete;
  SyncFreeSolver& operator=(const SyncFreeSolver&) = delete;
  ~SyncFreeSolver();

  // Solves L x_c = b_c for c = 0 .. rhs-1 (one kernel launch per column, after resetting
  // the column's ready flags and ticket on the same stream). rhs >= 0, else
  // std::invalid_argument. Not safe to call concurrently on two streams with one solver:
  // the flags are per solver.
  void solve(const Real* d_b, Real* d_x, int rhs, cudaStream_t stream);

  // Host wall time of the constructor's preparation: check, conversion, upload and the
  // launch configuration query.
  double analysis_ms() const;
  sparse::index_t rows() const;
  int grid_blocks() const;  // blocks of block_threads threads per launch
  static constexpr int block_threads = 256;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

template <class Real>
class CusparseSolver {
 public:
  // Creates the cuSPARSE handle, the matrix and vector descriptors and the SpSV
  // descriptor, and runs cusparseSpSV_bufferSize and cusparseSpSV_analysis. With
  // reversed_upper, `lower` is an upper-triangular U numbered backwards
  // (lower(i, j) = U(n-1-i, n-1-j)) and cuSPARSE gets U itself (fill mode upper), so b
  // and x are in U's numbering: no reversal is needed around the solve.
  explicit CusparseSolver(const sparse::Csr<double>& lower, bool reversed_upper = false);
  CusparseSolver(CusparseSolver&&) noexcept;
  CusparseSolver& operator=(CusparseSolver&&) noexcept;
  CusparseSolver(const CusparseSolver&) = delete;
  CusparseSolver& operator=(const CusparseSolver&) = delete;
  ~CusparseSolver();

  // cusparseSpSV_solve once per column on `stream`. rhs >= 0, else std::invalid_argument.
  // Not safe to call concurrently on two streams with one solver: the SpSV descriptor and
  // its buffer are per solver.
  void solve(const Real* d_b, Real* d_x, int rhs, cudaStream_t stream);

  // Host wall time of cusparseSpSV_bufferSize plus cusparseSpSV_analysis (synchronised
  // to its end); neither the upload, the handle creation nor the buffer allocation.
  double analysis_ms() const;
  sparse::index_t rows() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

namespace detail {
// The check both constructors make (see above), plus consistent array sizes and every
// off-diagonal column below its row (a duplicate diagonal would make a row wait on
// itself); returns the values converted to Real. `what` starts the error messages.
template <class Real>
std::vector<Real> checked_values(const sparse::Csr<double>& lower, const char* what);
}  // namespace detail

}  // namespace apiary::sptrsv
