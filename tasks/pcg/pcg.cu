#include "tasks/pcg/pcg.hpp"

#include <cublas_v2.h>
#include <cusparse.h>

#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/cuda_check.hpp"
#include "runtime/device_buffer.hpp"
#include "sparse/convert.hpp"
#include "tasks/sptrsv/analysis.hpp"
#include "tasks/sptrsv/cusparse_check.hpp"
#include "tasks/pcg/task_loop.hpp"

namespace apiary::pcg {

using sparse::Csr;
using sparse::index_t;

namespace {

void cublas_check(cublasStatus_t status, const char* call, const char* file, int line) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string(call) + " failed: " + cublasGetStatusString(status) + " at " + file + ":" +
                             std::to_string(line));
}
#define PCG_CUBLAS_CHECK(call) cublas_check((call), #call, __FILE__, __LINE__)

constexpr int kBlock = 256;

int blocks_for(index_t n) { return static_cast<int>((static_cast<std::int64_t>(n) + kBlock - 1) / kBlock); }

// p = z + beta p
__global__ void xpby_kernel(index_t n, const double* z, double beta, double* p) {
  const index_t i = static_cast<index_t>(blockIdx.x) * kBlock + static_cast<index_t>(threadIdx.x);
  if (i < n) p[i] = z[i] + beta * p[i];
}

// z = r / d (division, as the host reference does)
__global__ void divide_kernel(index_t n, const double* r, const double* d, double* z) {
  const index_t i = static_cast<index_t>(blockIdx.x) * kBlock + static_cast<index_t>(threadIdx.x);
  if (i < n) z[i] = r[i] / d[i];
}

// A CSR matrix in device memory (32-bit indices) with its cuSPARSE descriptor.
struct DeviceCsr {
  DeviceBuffer<index_t> row_ptr, col;
  DeviceBuffer<double> val;
  cusparseSpMatDescr_t mat = nullptr;

  explicit DeviceCsr(const Csr<double>& a)
      : row_ptr(std::span<const index_t>(a.row_ptr.data(), a.row_ptr.size())),
        col(std::span<const index_t>(a.col.data(), a.col.size())),
        val(std::span<const double>(a.val.data(), a.val.size())) {
    APIARY_CUSPARSE_CHECK(cusparseCreateCsr(&mat, a.rows, a.cols, static_cast<std::int64_t>(a.nnz()), row_ptr.data(),
                                            col.data(), val.data(), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                            CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
  }
  DeviceCsr(const DeviceCsr&) = delete;
  DeviceCsr& operator=(const DeviceCsr&) = delete;
  ~DeviceCsr() {
    if (mat != nullptr) cusparseDestroySpMat(mat);
  }
};

// cusparseSpSV of one triangle, over fixed vectors: out = T^-1 in. Analysed once here.
class SpsvTriangle {
 public:
  SpsvTriangle(cusparseHandle_t handle, const Csr<double>& t, cusparseFillMode_t fill, double* in, double* out)
      : matrix_(t) {
    const std::int64_t n = t.rows;
    APIARY_CUSPARSE_CHECK(cusparseSpMatSetAttribute(matrix_.mat, CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof(fill)));
    cusparseDiagType_t diag = CUSPARSE_DIAG_TYPE_NON_UNIT;
    APIARY_CUSPARSE_CHECK(cusparseSpMatSetAttribute(matrix_.mat, CUSPARSE_SPMAT_DIAG_TYPE, &diag, sizeof(diag)));
    APIARY_CUSPARSE_CHECK(cusparseCreateDnVec(&in_, n, in, CUDA_R_64F));
    APIARY_CUSPARSE_CHECK(cusparseCreateDnVec(&out_, n, out, CUDA_R_64F));
    APIARY_CUSPARSE_CHECK(cusparseSpSV_createDescr(&spsv_));
    std::size_t bytes = 0;
    APIARY_CUSPARSE_CHECK(cusparseSpSV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha_, matrix_.mat, in_,
                                                  out_, CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, spsv_, &bytes));
    buffer_ = DeviceBuffer<unsigned char>(bytes > 0 ? bytes : 1);
    APIARY_CUSPARSE_CHECK(cusparseSpSV_analysis(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha_, matrix_.mat, in_,
                                                out_, CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, spsv_, buffer_.data()));
  }
  SpsvTriangle(const SpsvTriangle&) = delete;
  SpsvTriangle& operator=(const SpsvTriangle&) = delete;
  ~SpsvTriangle() {
    if (spsv_ != nullptr) cusparseSpSV_destroyDescr(spsv_);
    if (out_ != nullptr) cusparseDestroyDnVec(out_);
    if (in_ != nullptr) cusparseDestroyDnVec(in_);
  }
  void solve(cusparseHandle_t handle) {
    APIARY_CUSPARSE_CHECK(cusparseSpSV_solve(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha_, matrix_.mat, in_, out_,
                                             CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, spsv_));
  }

 private:
  double alpha_ = 1.0;
  DeviceCsr matrix_;
  DeviceBuffer<unsigned char> buffer_;  // lives as long as the SpSV descriptor that uses it
  cusparseDnVecDescr_t in_ = nullptr;
  cusparseDnVecDescr_t out_ = nullptr;
  cusparseSpSVDescr_t spsv_ = nullptr;
};

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

}  // namespace

std::string_view to_string(Method m) {
  switch (m) {
    case Method::ic0: return "ic0";
    case Method::cusparse_ic0: return "cusparse-ic0";
    case Method::jacobi: return "jacobi";
    case Method::cg: return "cg";
  }
  return "?";
}

std::optional<Method> parse_method(std::string_view s) {
  for (Method m : kMethods)
    if (s == to_string(m)) return m;
  return std::nullopt;
}

std::string_view to_string(Loop l) { return l == Loop::host ? "host" : "tasks"; }

std::optional<Loop> parse_loop(std::string_view s) {
  for (Loop l : kLoops)
    if (s == to_string(l)) return l;
  return std::nullopt;
}

HostPreconditioner host_preconditioner(Method m) {
  switch (m) {
    case Method::ic0:
    case Method::cusparse_ic0: return HostPreconditioner::ic0;
    case Method::jacobi: return HostPreconditioner::jacobi;
    case Method::cg: return HostPreconditioner::none;
  }
  return HostPreconditioner::none;
}

struct PcgSolver::Impl {
  Method method = Method::cg;
  Loop loop = Loop::host;
  std::unique_ptr<TaskLoop> tasks;  // the task loop; the members below are the host loop's
  index_t n = 0;
  double setup_ms = 0;
  double analysis_ms = 0;
  // Declared first, destroyed last: everything below may point into these.
  DeviceBuffer<double> x, r, z, p, q, y, diag;
  DeviceBuffer<unsigned char> spmv_buffer;
  sptrsv::LowerSystem lower_system, upper_system;  // kept alive beside the solvers built on them
  sptrsv::Analysis lower_analysis, upper_analysis;
  std::unique_ptr<sptrsv::TriangularSolver<double>> lower_solver, upper_solver;
  std::unique_ptr<DeviceCsr> a;
  std::unique_ptr<SpsvTriangle> spsv_lower, spsv_upper;
  cudaStream_t stream = nullptr;
  cusparseHandle_t sparse = nullptr;
  cublasHandle_t blas = nullptr;
  cusparseDnVecDescr_t vec_p = nullptr, vec_q = nullptr;

  Impl() = default;
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
  ~Impl() {  // statuses ignored: no throw from a destructor
    if (stream != nullptr) cudaStreamSynchronize(stream);
    spsv_lower.reset();
    spsv_upper.reset();
    a.reset();
    if (vec_q != nullptr) cusparseDestroyDnVec(vec_q);
    if (vec_p != nullptr) cusparseDestroyDnVec(vec_p);
    if (blas != nullptr) cublasDestroy(blas);
    if (sparse != nullptr) cusparseDestroy(sparse);
    if (stream != nullptr) cudaStreamDestroy(stream);
  }

  void apply_preconditioner() {
    switch (method) {
      case Method::cg:
        APIARY_CUDA_CHECK(cudaMemcpyAsync(z.data(), r.data(), r.bytes(), cudaMemcpyDeviceToDevice, stream));
        break;
      case Method::jacobi:
        divide_kernel<<<blocks_for(n), kBlock, 0, stream>>>(n, r.data(), diag.data(), z.data());
        APIARY_CUDA_CHECK_LAUNCH();
        break;
      case Method::ic0:
        lower_solver->solve(r.data(), y.data(), 1, stream);
        upper_solver->solve(y.data(), z.data(), 1, stream);
        break;
      case Method::cusparse_ic0:
        spsv_lower->solve(sparse);
        spsv_upper->solve(sparse);
        break;
    }
  }

  double dot(const double* u, const double* v) {
    double s = 0;
    PCG_CUBLAS_CHECK(cublasDdot(blas, n, u, 1, v, 1, &s));
    return s;
  }
};

PcgSolver::PcgSolver(const Csr<double>& a, Method m, const Csr<double>* factor, const DeviceOptions& o)
    : impl_(std::make_unique<Impl>()) {
  sparse::require_square(a, "pcg");
  if (a.rows == 0) throw std::invalid_argument("pcg: the matrix is empty");
  if (uses_factor(m) && (factor == nullptr || factor->rows != a.rows || factor->cols != a.cols))
    throw std::invalid_argument("pcg: " + std::string(to_string(m)) + " needs the IC(0) factor of the matrix");
  const auto t0 = Clock::now();
  Impl& s = *impl_;
  s.method = m;
  s.loop = o.loop;
  s.n = a.rows;
  if (o.loop == Loop::tasks) {
    if (!runs_in(m, o.loop))
      throw std::invalid_argument("pcg: " + std::string(to_string(m)) + " runs in the host loop only");
    s.tasks = std::make_unique<TaskLoop>(a, host_preconditioner(m), factor, o.scheduler, o.budgets, o.blocks_per_sm);
    s.analysis_ms = s.tasks->info().analysis_ms;
    s.setup_ms = ms_since(t0);
    return;
  }
  const std::size_t n = static_cast<std::size_t>(a.rows);
  if (m == Method::jacobi) s.diag = to_device(positive_diagonal(a));
  for (DeviceBuffer<double>* v : {&s.x, &s.r, &s.z, &s.p, &s.q, &s.y}) *v = DeviceBuffer<double>(n);

  APIARY_CUDA_CHECK(cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking));
  APIARY_CUSPARSE_CHECK(cusparseCreate(&s.sparse));
  APIARY_CUSPARSE_CHECK(cusparseSetStream(s.sparse, s.stream));
  PCG_CUBLAS_CHECK(cublasCreate(&s.blas));
  PCG_CUBLAS_CHECK(cublasSetStream(s.blas, s.stream));
  PCG_CUBLAS_CHECK(cublasSetPointerMode(s.blas, CUBLAS_POINTER_MODE_HOST));

  s.a = std::make_unique<DeviceCsr>(a);
  APIARY_CUSPARSE_CHECK(cusparseCreateDnVec(&s.vec_p, s.n, s.p.data(), CUDA_R_64F));
  APIARY_CUSPARSE_CHECK(cusparseCreateDnVec(&s.vec_q, s.n, s.q.data(), CUDA_R_64F));
  const double one = 1, zero = 0;
  std::size_t bytes = 0;
  APIARY_CUSPARSE_CHECK(cusparseSpMV_bufferSize(s.sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, s.a->mat, s.vec_p,
                                                &zero, s.vec_q, CUDA_R_64F, CUSPARSE_SPMV_CSR_ALG1, &bytes));
  s.spmv_buffer = DeviceBuffer<unsigned char>(bytes > 0 ? bytes : 1);

  if (m == Method::ic0) {
    const auto ta = Clock::now();
    s.lower_system = sptrsv::make_lower_system(*factor, {});
    s.upper_system = sptrsv::make_lower_system(sparse::transpose(*factor), {});
    if (sptrsv::uses_tassl(o.trsv)) {
      s.lower_analysis = sptrsv::analyze(s.lower_system, sptrsv::limits_of<double>());
      s.upper_analysis = sptrsv::analyze(s.upper_system, sptrsv::limits_of<double>());
    }
    s.analysis_ms = ms_since(ta);
    s.lower_solver = sptrsv::make_solver<double>(o.trsv, s.lower_system, &s.lower_analysis, {.scheduler = o.scheduler});
    s.upper_solver = sptrsv::make_solver<double>(o.trsv, s.upper_system, &s.upper_analysis, {.scheduler = o.scheduler});
  } else if (m == Method::cusparse_ic0) {
    s.spsv_lower = std::make_unique<SpsvTriangle>(s.sparse, *factor, CUSPARSE_FILL_MODE_LOWER, s.r.data(), s.y.data());
    s.spsv_upper = std::make_unique<SpsvTriangle>(s.sparse, sparse::transpose(*factor), CUSPARSE_FILL_MODE_UPPER,
                                                  s.y.data(), s.z.data());
  }
  APIARY_CUDA_CHECK(cudaStreamSynchronize(s.stream));
  APIARY_CUDA_CHECK(cudaDeviceSynchronize());
  s.setup_ms = ms_since(t0);
}

PcgSolver::~PcgSolver() = default;

Method PcgSolver::method() const { return impl_->method; }
Loop PcgSolver::loop() const { return impl_->loop; }
double PcgSolver::setup_ms() const { return impl_->setup_ms; }
double PcgSolver::analysis_ms() const { return impl_->analysis_ms; }
TaskLoopInfo PcgSolver::task_loop_info() const { return impl_->tasks ? impl_->tasks->info() : TaskLoopInfo{}; }

PcgResult PcgSolver::solve(std::span<const double> b, const PcgOptions& o) {
  Impl& s = *impl_;
  if (s.tasks) return s.tasks->solve(b, o);
  if (b.size() != static_cast<std::size_t>(s.n))
    throw std::invalid_argument("pcg: b has " + std::to_string(b.size()) + " entries, the matrix " +
                                std::to_string(s.n) + " rows");
  const int limit = checked_iteration_limit(o, s.n);
  const double one = 1, zero = 0;
  PcgResult res;
  s.r.copy_from(b);  // synchronous
  s.x.fill_zero();
  APIARY_CUDA_CHECK(cudaDeviceSynchronize());

  const auto t0 = Clock::now();
  double b_norm = 0;
  PCG_CUBLAS_CHECK(cublasDnrm2(s.blas, s.n, s.r.data(), 1, &b_norm));
  if (b_norm == 0) {
    res.stop = Stop::converged;
  } else {
    s.apply_preconditioner();
    APIARY_CUDA_CHECK(cudaMemcpyAsync(s.p.data(), s.z.data(), s.z.bytes(), cudaMemcpyDeviceToDevice, s.stream));
    double rz = s.dot(s.r.data(), s.z.data());
    res.residual = 1;
    res.stop = Stop::max_iterations;
    for (int k = 1; k <= limit; ++k) {
      APIARY_CUSPARSE_CHECK(cusparseSpMV(s.sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, s.a->mat, s.vec_p, &zero,
                                         s.vec_q, CUDA_R_64F, CUSPARSE_SPMV_CSR_ALG1, s.spmv_buffer.data()));
      const double pq = s.dot(s.p.data(), s.q.data());
      if (breaks_down(res, "p.Ap", k, pq)) break;
      const double alpha = rz / pq, minus_alpha = -alpha;
      PCG_CUBLAS_CHECK(cublasDaxpy(s.blas, s.n, &alpha, s.p.data(), 1, s.x.data(), 1));
      PCG_CUBLAS_CHECK(cublasDaxpy(s.blas, s.n, &minus_alpha, s.q.data(), 1, s.r.data(), 1));
      double r_norm = 0;
      PCG_CUBLAS_CHECK(cublasDnrm2(s.blas, s.n, s.r.data(), 1, &r_norm));
      if (stops_after(res, k, r_norm / b_norm, o.tolerance, limit)) break;
      s.apply_preconditioner();
      const double rz_next = s.dot(s.r.data(), s.z.data());
      if (breaks_down(res, "r.z", k, rz_next)) break;
      const double beta = rz_next / rz;
      rz = rz_next;
      xpby_kernel<<<blocks_for(s.n), kBlock, 0, s.stream>>>(s.n, s.z.data(), beta, s.p.data());
      APIARY_CUDA_CHECK_LAUNCH();
    }
  }
  APIARY_CUDA_CHECK(cudaStreamSynchronize(s.stream));
  res.milliseconds = ms_since(t0);
  if (res.stop == Stop::max_iterations) res.reason = max_iterations_reason(res.iterations, res.residual, o.tolerance);
  res.x = s.x.to_host(s.stream);
  return res;
}

}  // namespace apiary::pcg
