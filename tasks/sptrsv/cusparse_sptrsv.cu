// cuSPARSE baseline: the generic SpSV API (CSR, 32-bit indices, zero-based, lower,
// non-unit diagonal, CUSPARSE_SPSV_ALG_DEFAULT), analysed once in the constructor and
// solved once per right-hand side.
//
// Choices:
// - The vector descriptors are created once, over two scratch vectors of n values,
//   because cusparseCreateDnVec refuses a null values pointer and the analysis takes the
//   descriptors; solve() re-points them at each column with cusparseDnVecSetValues. The
//   scratch vectors are kept (2n values) so no descriptor ever points at freed memory.
// - b is bound through a non-const descriptor (const_cast): cusparseDnVecSetValues has
//   no const form; cuSPARSE only reads vecX.
// - alpha lives in the solver, in host memory (the default pointer mode): it is read
//   when cusparseSpSV_solve is called, and stays valid anyway.
// - The SpSV buffer stays allocated for the life of the SpSV descriptor, which uses it.
#include <cusparse.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "runtime/cuda_check.hpp"
#include "runtime/device_buffer.hpp"
#include "sparse/transform.hpp"
#include "tasks/sptrsv/baselines.hpp"
#include "tasks/sptrsv/cusparse_check.hpp"

namespace apiary::sptrsv {

using sparse::index_t;

namespace {

template <class Real>
constexpr cudaDataType value_type() {
  static_assert(std::is_same_v<Real, float> || std::is_same_v<Real, double>);
  return std::is_same_v<Real, float> ? CUDA_R_32F : CUDA_R_64F;
}

// A stream of our own for the analysis, so that its time can be taken by synchronising
// with it alone. The handle is set back to the default stream before the stream is
// destroyed, also when the analysis throws, so the handle never holds a dead stream.
class AnalysisStream {
 public:
  explicit AnalysisStream(cusparseHandle_t handle) : handle_(handle) {
    APIARY_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    const cusparseStatus_t status = cusparseSetStream(handle_, stream_);
    if (status != CUSPARSE_STATUS_SUCCESS) {
      cudaStreamDestroy(stream_);
      cusparse_check(status, "cusparseSetStream(handle, analysis stream)", __FILE__, __LINE__);
    }
  }
  AnalysisStream(const AnalysisStream&) = delete;
  AnalysisStream& operator=(const AnalysisStream&) = delete;
  ~AnalysisStream() {
    cusparseSetStream(handle_, nullptr);  // no throw from a destructor
    cudaStreamDestroy(stream_);
  }
  cudaStream_t get() const { return stream_; }

 private:
  cusparseHandle_t handle_;
  cudaStream_t stream_{};
};

}  // namespace

template <class Real>
struct CusparseSolver<Real>::Impl {
  index_t n = 0;
  Real alpha = Real(1);
  double analysis_ms = 0;
  // Device arrays first, so that they are freed after the cuSPARSE objects below
  // (members are destroyed in reverse order, after ~Impl's body).
  DeviceBuffer<index_t> row_ptr;
  DeviceBuffer<index_t> col;
  DeviceBuffer<Real> val;
  DeviceBuffer<Real> scratch;  // 2n: the vectors the descriptors are created over
  DeviceBuffer<unsigned char> buffer;
  cusparseHandle_t handle = nullptr;
  cusparseSpMatDescr_t mat = nullptr;
  cusparseDnVecDescr_t vec_b = nullptr;
  cusparseDnVecDescr_t vec_x = nullptr;
  cusparseSpSVDescr_t spsv = nullptr;

  Impl() = default;
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
  // Statuses are ignored here: a destructor must not throw. Whatever the constructor
  // created before it failed is destroyed too (the others are null).
  ~Impl() {
    if (spsv != nullptr) cusparseSpSV_destroyDescr(spsv);
    if (vec_x != nullptr) cusparseDestroyDnVec(vec_x);
    if (vec_b != nullptr) cusparseDestroyDnVec(vec_b);
    if (mat != nullptr) cusparseDestroySpMat(mat);
    if (handle != nullptr) cusparseDestroy(handle);
  }
};

template <class Real>
CusparseSolver<Real>::CusparseSolver(const sparse::Csr<double>& lower, bool reversed_upper)
    : impl_(std::make_unique<Impl>()) {
  std::vector<Real> values = detail::checked_values<Real>(lower, "CusparseSolver");
  Impl& s = *impl_;
  s.n = lower.rows;
  if (s.n == 0) return;  // nothing to analyse; solve() returns at once
  const std::int64_t n = s.n;
  const std::int64_t nnz = static_cast<std::int64_t>(lower.nnz());
  constexpr cudaDataType type = value_type<Real>();

  // The user's upper triangle U(i, j) = lower(n-1-i, n-1-j), handed to cuSPARSE as such.
  sparse::Csr<double> upper;
  if (reversed_upper) {
    std::vector<index_t> backwards(static_cast<std::size_t>(n));
    for (index_t i = 0; i < s.n; ++i) backwards[i] = s.n - 1 - i;
    upper = sparse::permute_symmetric(lower, backwards);
    values.assign(upper.val.begin(), upper.val.end());
  }
  const sparse::Csr<double>& m = reversed_upper ? upper : lower;
  s.row_ptr = DeviceBuffer<index_t>(std::span<const index_t>(m.row_ptr));
  s.col = DeviceBuffer<index_t>(std::span<const index_t>(m.col));
  s.val = DeviceBuffer<Real>(std::span<const Real>(values));
  s.scratch = DeviceBuffer<Real>(2 * static_cast<std::size_t>(n));

  APIARY_CUSPARSE_CHECK(cusparseCreate(&s.handle));
  APIARY_CUSPARSE_CHECK(cusparseCreateCsr(&s.mat, n, n, nnz, s.row_ptr.data(), s.col.data(), s.val.data(),
                                          CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, type));
  cusparseFillMode_t fill = reversed_upper ? CUSPARSE_FILL_MODE_UPPER : CUSPARSE_FILL_MODE_LOWER;
  APIARY_CUSPARSE_CHECK(cusparseSpMatSetAttribute(s.mat, CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof(fill)));
  cusparseDiagType_t diag = CUSPARSE_DIAG_TYPE_NON_UNIT;
  APIARY_CUSPARSE_CHECK(cusparseSpMatSetAttribute(s.mat, CUSPARSE_SPMAT_DIAG_TYPE, &diag, sizeof(diag)));
  APIARY_CUSPARSE_CHECK(cusparseCreateDnVec(&s.vec_b, n, s.scratch.data(), type));
  APIARY_CUSPARSE_CHECK(cusparseCreateDnVec(&s.vec_x, n, s.scratch.data() + n, type));
  APIARY_CUSPARSE_CHECK(cusparseSpSV_createDescr(&s.spsv));

  // The upload is done (DeviceBuffer copies synchronise). Timed: bufferSize and the
  // analysis up to its end on the device; not the allocation in between.
  const AnalysisStream stream(s.handle);
  using clock = std::chrono::steady_clock;
  const auto size_start = clock::now();
  std::size_t buffer_bytes = 0;
  APIARY_CUSPARSE_CHECK(cusparseSpSV_bufferSize(s.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &s.alpha, s.mat,
                                                s.vec_b, s.vec_x, type, CUSPARSE_SPSV_ALG_DEFAULT, s.spsv,
                                                &buffer_bytes));
  const auto size_end = clock::now();
  // At least one byte, so the buffer pointer is never null.
  s.buffer = DeviceBuffer<unsigned char>(buffer_bytes > 0 ? buffer_bytes : 1);
  const auto analysis_start = clock::now();
  APIARY_CUSPARSE_CHECK(cusparseSpSV_analysis(s.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &s.alpha, s.mat,
                                              s.vec_b, s.vec_x, type, CUSPARSE_SPSV_ALG_DEFAULT, s.spsv,
                                              s.buffer.data()));
  APIARY_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
  const auto analysis_end = clock::now();
  // solve() sets the caller's stream before every use of the handle.
  s.analysis_ms = std::chrono::duration<double, std::milli>((size_end - size_start) +
                                                            (analysis_end - analysis_start))
                      .count();
}

template <class Real>
CusparseSolver<Real>::CusparseSolver(CusparseSolver&&) noexcept = default;
template <class Real>
CusparseSolver<Real>& CusparseSolver<Real>::operator=(CusparseSolver&&) noexcept = default;
template <class Real>
CusparseSolver<Real>::~CusparseSolver() = default;

template <class Real>
void CusparseSolver<Real>::solve(const Real* d_b, Real* d_x, int rhs, cudaStream_t stream) {
  if (!impl_) throw std::logic_error("CusparseSolver::solve: the solver was moved from");
  if (rhs < 0) throw std::invalid_argument("CusparseSolver::solve: rhs must be >= 0, got " + std::to_string(rhs));
  Impl& s = *impl_;
  if (s.n == 0 || rhs == 0) return;
  if (d_b == nullptr || d_x == nullptr) throw std::invalid_argument("CusparseSolver::solve: null vector");
  constexpr cudaDataType type = value_type<Real>();
  APIARY_CUSPARSE_CHECK(cusparseSetStream(s.handle, stream));
  for (int c = 0; c < rhs; ++c) {
    const std::size_t offset = static_cast<std::size_t>(c) * static_cast<std::size_t>(s.n);
    APIARY_CUSPARSE_CHECK(cusparseDnVecSetValues(s.vec_b, const_cast<Real*>(d_b + offset)));
    APIARY_CUSPARSE_CHECK(cusparseDnVecSetValues(s.vec_x, d_x + offset));
    APIARY_CUSPARSE_CHECK(cusparseSpSV_solve(s.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &s.alpha, s.mat, s.vec_b,
                                             s.vec_x, type, CUSPARSE_SPSV_ALG_DEFAULT, s.spsv));
  }
}

template <class Real>
double CusparseSolver<Real>::analysis_ms() const {
  if (!impl_) throw std::logic_error("CusparseSolver: the solver was moved from");
  return impl_->analysis_ms;
}

template <class Real>
index_t CusparseSolver<Real>::rows() const {
  if (!impl_) throw std::logic_error("CusparseSolver: the solver was moved from");
  return impl_->n;
}

template class CusparseSolver<float>;
template class CusparseSolver<double>;

}  // namespace apiary::sptrsv
