// The baseline GPU triangular solvers (tasks/sptrsv/baselines.hpp), sync-free and
// cuSPARSE, in float and double, against forward substitution on the host
// (sparse::triangular_solve): random lower DAGs, a chain, a diagonal matrix, tril of the
// 2D and 3D Poisson matrices, rows longer than a warp and than 1000 entries, several
// right-hand sides, repeated solves, a matrix larger than the resident warps, and the
// errors. Every test skips without a GPU.
//
// The reference is computed in double from the matrix and right-hand side rounded to the
// solver's Real, so the comparison measures the solver's arithmetic only. All matrices are
// strictly row diagonally dominant with margin >= 1 (diagonal >= 1 + sum |off-diagonal|),
// so ||L^-1||_inf <= 1 and rounding errors are not amplified.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "runtime/cuda_check.hpp"
#include "runtime/device_buffer.hpp"
#include "sparse/convert.hpp"
#include "sparse/generators.hpp"
#include "sparse/reference.hpp"
#include "sparse/transform.hpp"
#include "tasks/sptrsv/baselines.hpp"
#include "tests/gpu_test.hpp"
#include "tests/tasks/sptrsv/dag_cases.hpp"

namespace {

using apiary::DeviceBuffer;
using apiary::sparse::Coo;
using apiary::sparse::Csr;
using apiary::sparse::index_t;
namespace sparse = apiary::sparse;
namespace sptrsv = apiary::sptrsv;

// ---- the four solvers under test ------------------------------------------------------

template <template <class> class S, class R>
struct SolverCase {
  using Solver = S<R>;
  using Real = R;
};
using SyncFreeDouble = SolverCase<sptrsv::SyncFreeSolver, double>;
using SyncFreeFloat = SolverCase<sptrsv::SyncFreeSolver, float>;
using CusparseDouble = SolverCase<sptrsv::CusparseSolver, double>;
using CusparseFloat = SolverCase<sptrsv::CusparseSolver, float>;

struct CaseNames {
  template <class C>
  static std::string GetName(int) {
    if constexpr (std::is_same_v<C, SyncFreeDouble>) return "SyncFreeDouble";
    if constexpr (std::is_same_v<C, SyncFreeFloat>) return "SyncFreeFloat";
    if constexpr (std::is_same_v<C, CusparseDouble>) return "CusparseDouble";
    if constexpr (std::is_same_v<C, CusparseFloat>) return "CusparseFloat";
    return "unknown";
  }
};

// max |x - x_ref| / max |x_ref|.
template <class Real>
constexpr double kTolerance = std::is_same_v<Real, double> ? 1e-12 : 1e-4;

// ---- matrices -------------------------------------------------------------------------

// Off-diagonal value of entry (i, j): +-[0.1, 1], deterministic, never zero.
double off_value(index_t i, index_t j) {
  const std::uint64_t h = (static_cast<std::uint64_t>(i) * 2654435761u + static_cast<std::uint64_t>(j) * 40503u) % 1000u;
  const double magnitude = 0.1 + 0.9 * static_cast<double>(h) / 999.0;
  return ((i + j) % 2 == 0) ? magnitude : -magnitude;
}

// Row i holds the columns columns_of(i) (all < i, any order, no duplicates) plus the
// diagonal 1 + sum |off-diagonal|.
Csr<double> lower_from_rows(index_t n, const std::function<std::vector<index_t>(index_t)>& columns_of) {
  Coo<double> coo;
  coo.rows = coo.cols = n;
  for (index_t i = 0; i < n; ++i) {
    double sum = 0;
    for (index_t j : columns_of(i)) {
      const double v = off_value(i, j);
      coo.push_back(i, j, v);
      sum += std::abs(v);
    }
    coo.push_back(i, i, 1.0 + sum);
  }
  return sparse::coo_to_csr(coo);
}

Csr<double> chain(index_t n) {
  return lower_from_rows(n, [](index_t i) { return i == 0 ? std::vector<index_t>{} : std::vector<index_t>{i - 1}; });
}

Csr<double> diagonal(index_t n) {
  return lower_from_rows(n, [](index_t) { return std::vector<index_t>{}; });
}

// Rows of every length that matters to a warp per row: 31, 32, 33 and 64 off-diagonal
// entries (under one pass of the lanes, exactly one, just over one, two), a dense row of
// 1999 off-diagonal entries, a row of every other column (1250), the rest a chain so that the long rows
// also wait on late rows.
Csr<double> long_rows() {
  constexpr index_t n = 2500;
  return lower_from_rows(n, [](index_t i) {
    std::vector<index_t> cols;
    auto all_before = [&](index_t count) {
      for (index_t j = i - count; j < i; ++j) cols.push_back(j);
    };
    if (i == 31 || i == 32 || i == 33) all_before(i);
    else if (i == 100) all_before(64);
    else if (i == 2000) all_before(1999);
    else if (i == n - 1)
      for (index_t j = 0; j < i; j += 2) cols.push_back(j);
    else if (i > 0) cols.push_back(i - 1);
    return cols;
  });
}

// The matrix as the solver sees it: values rounded to Real (exact for double).
template <class Real>
Csr<double> rounded(Csr<double> l) {
  for (double& v : l.val) v = static_cast<double>(static_cast<Real>(v));
  return l;
}

// ---- right-hand sides, reference, device solve ----------------------------------------

// rhs columns of n values in [-1, 1], column-major, representable in Real.
template <class Real>
std::vector<double> make_rhs(index_t n, int rhs, std::uint64_t salt = 0) {
  std::vector<double> b(static_cast<std::size_t>(n) * static_cast<std::size_t>(rhs));
  for (std::size_t k = 0; k < b.size(); ++k) {
    const std::uint64_t h = (k * 7919u + salt * 104729u + 13u) % 2001u;
    b[k] = static_cast<double>(static_cast<Real>(static_cast<double>(h) / 1000.0 - 1.0));
  }
  return b;
}

std::vector<double> reference(const Csr<double>& l, const std::vector<double>& b, int rhs) {
  const auto n = static_cast<std::size_t>(l.rows);
  std::vector<double> x(b.size());
  for (int c = 0; c < rhs; ++c) {
    const std::span<const double> column(b.data() + c * n, n);
    const std::vector<double> xc = sparse::triangular_solve(l, column);
    std::copy(xc.begin(), xc.end(), x.begin() + static_cast<std::ptrdiff_t>(c * n));
  }
  return x;
}

// max |x - ref| / max |ref| (max |x - ref| when ref = 0); infinity when x has a NaN or
// an infinity, e.g. an entry the solver never wrote (the output starts as NaN).
double relative_error(const std::vector<double>& x, const std::vector<double>& ref) {
  if (x.size() != ref.size()) return std::numeric_limits<double>::infinity();
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!std::isfinite(x[i])) return std::numeric_limits<double>::infinity();
    diff = std::max(diff, std::abs(x[i] - ref[i]));
    norm = std::max(norm, std::abs(ref[i]));
  }
  return norm == 0 ? diff : diff / norm;
}

class Stream {
 public:
  Stream() { APIARY_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  ~Stream() { cudaStreamDestroy(stream_); }
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_{};
};

// Uploads b, solves on a stream of its own into an output filled with NaN, downloads x.
template <class C>
std::vector<double> device_solve(typename C::Solver& solver, const std::vector<double>& b, int rhs) {
  using Real = typename C::Real;
  std::vector<Real> host_b(b.size());
  for (std::size_t k = 0; k < b.size(); ++k) host_b[k] = static_cast<Real>(b[k]);
  DeviceBuffer<Real> d_b{std::span<const Real>(host_b)};
  DeviceBuffer<Real> d_x(host_b.size());
  if (!d_x.empty()) APIARY_CUDA_CHECK(cudaMemset(d_x.data(), 0xff, d_x.bytes()));  // all-ones bits: NaN
  Stream stream;
  solver.solve(d_b.data(), d_x.data(), rhs, stream.get());
  APIARY_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
  const std::vector<Real> host_x = d_x.to_host();
  return std::vector<double>(host_x.begin(), host_x.end());
}

// Builds the solver, solves rhs columns, compares with the reference.
template <class C>
void expect_solves(const Csr<double>& l, int rhs, const std::string& label) {
  using Real = typename C::Real;
  SCOPED_TRACE(label + " (" + std::to_string(l.rows) + " rows, " + std::to_string(l.nnz()) + " entries, " +
               std::to_string(rhs) + " rhs)");
  typename C::Solver solver(l);
  EXPECT_EQ(solver.rows(), l.rows);
  EXPECT_GE(solver.analysis_ms(), 0.0);
  const std::vector<double> b = make_rhs<Real>(l.rows, rhs);
  const std::vector<double> x = device_solve<C>(solver, b, rhs);
  EXPECT_LE(relative_error(x, reference(rounded<Real>(l), b, rhs)), kTolerance<Real>);
}

template <class C>
class BaselineSolver : public ::testing::Test {};

using Cases = ::testing::Types<SyncFreeDouble, SyncFreeFloat, CusparseDouble, CusparseFloat>;
TYPED_TEST_SUITE(BaselineSolver, Cases, CaseNames);

// ---- tests ----------------------------------------------------------------------------

TYPED_TEST(BaselineSolver, RandomDags) {
  APIARY_REQUIRE_GPU();
  // The analysis tests' DAG list; each matrix is visited once per n_max there, once here.
  sptrsv::testing::for_each_random_dag([](const Csr<double>& l, index_t n_max, const std::string& label) {
    if (n_max == 1) expect_solves<TypeParam>(l, 1, label);
  });
}

TYPED_TEST(BaselineSolver, BlockDiagonalLower) {
  APIARY_REQUIRE_GPU();
  for (std::uint64_t seed : {1u, 2u})
    expect_solves<TypeParam>(sparse::block_diagonal_lower<double>(6, 200, 0.3, seed), 1,
                             "block_diagonal_lower 6x200 seed " + std::to_string(seed));
}

TYPED_TEST(BaselineSolver, Chain) {
  APIARY_REQUIRE_GPU();
  expect_solves<TypeParam>(chain(2), 1, "chain 2");
  expect_solves<TypeParam>(chain(5000), 1, "chain 5000");
}

TYPED_TEST(BaselineSolver, DiagonalOnly) {
  APIARY_REQUIRE_GPU();
  expect_solves<TypeParam>(diagonal(1), 1, "diagonal 1");
  expect_solves<TypeParam>(diagonal(10000), 1, "diagonal 10000");
}

TYPED_TEST(BaselineSolver, LowerPoisson2d) {
  APIARY_REQUIRE_GPU();
  expect_solves<TypeParam>(sparse::lower_triangle(sparse::poisson2d<double>(70, 50)), 1, "tril(poisson2d 70x50)");
}

TYPED_TEST(BaselineSolver, LowerPoisson3d) {
  APIARY_REQUIRE_GPU();
  expect_solves<TypeParam>(sparse::lower_triangle(sparse::poisson3d<double>(16, 12, 10)), 1,
                           "tril(poisson3d 16x12x10)");
}

TYPED_TEST(BaselineSolver, RowsLongerThanAWarpAndThan1000Entries) {
  APIARY_REQUIRE_GPU();
  const Csr<double> l = long_rows();
  ASSERT_EQ(l.row_length(33), 34);
  ASSERT_EQ(l.row_length(2000), 2000);
  ASSERT_GT(l.row_length(l.rows - 1), 1000);
  expect_solves<TypeParam>(l, 1, "long rows");
}

TYPED_TEST(BaselineSolver, ThreeRightHandSides) {
  APIARY_REQUIRE_GPU();
  expect_solves<TypeParam>(sparse::lower_triangle(sparse::poisson2d<double>(40, 30)), 3, "tril(poisson2d 40x30)");
  expect_solves<TypeParam>(sparse::random_lower_dag<double>({2000, 30, 3}, 7), 3, "dag 2000/30/3");
  expect_solves<TypeParam>(long_rows(), 3, "long rows");
}

// More rows than warps resident on any current GPU (the sync-free grid is capped at the
// resident blocks), so warps take many tickets each.
TYPED_TEST(BaselineSolver, MoreRowsThanResidentWarps) {
  APIARY_REQUIRE_GPU();
  expect_solves<TypeParam>(sparse::random_lower_dag<double>({200000, 100, 1}, 3), 1, "dag 200000/100/1");
}

// A second solve with the same solver must not see the first one's ready flags.
TYPED_TEST(BaselineSolver, RepeatedSolvesAreIndependent) {
  APIARY_REQUIRE_GPU();
  using Real = typename TypeParam::Real;
  const Csr<double> l = sparse::random_lower_dag<double>({3000, 60, 2}, 11);
  typename TypeParam::Solver solver(l);
  for (std::uint64_t salt : {1u, 2u, 3u}) {
    SCOPED_TRACE("solve " + std::to_string(salt));
    const std::vector<double> b = make_rhs<Real>(l.rows, 2, salt);
    EXPECT_LE(relative_error(device_solve<TypeParam>(solver, b, 2), reference(rounded<Real>(l), b, 2)),
              kTolerance<Real>);
  }
}

TYPED_TEST(BaselineSolver, MovedSolverSolves) {
  APIARY_REQUIRE_GPU();
  using Real = typename TypeParam::Real;
  const Csr<double> l = chain(100);
  typename TypeParam::Solver first(l);
  typename TypeParam::Solver solver(std::move(first));
  const std::vector<double> b = make_rhs<Real>(l.rows, 1);
  EXPECT_LE(relative_error(device_solve<TypeParam>(solver, b, 1), reference(rounded<Real>(l), b, 1)),
            kTolerance<Real>);
}

TYPED_TEST(BaselineSolver, EmptyMatrixAndNoRightHandSide) {
  APIARY_REQUIRE_GPU();
  Csr<double> empty;  // 0 x 0
  typename TypeParam::Solver none(empty);
  EXPECT_EQ(none.rows(), 0);
  EXPECT_NO_THROW(none.solve(nullptr, nullptr, 1, nullptr));
  typename TypeParam::Solver solver(chain(10));
  EXPECT_NO_THROW(solver.solve(nullptr, nullptr, 0, nullptr));
  EXPECT_TRUE(device_solve<TypeParam>(solver, std::vector<double>{}, 0).empty());
}

TYPED_TEST(BaselineSolver, RejectsBadInput) {
  APIARY_REQUIRE_GPU();
  using Solver = typename TypeParam::Solver;
  using Real = typename TypeParam::Real;
  auto dense = [](index_t n, std::vector<double> v) {
    Coo<double> coo;
    coo.rows = coo.cols = n;
    for (index_t i = 0; i < n; ++i)
      for (index_t j = 0; j < n; ++j)
        if (v[static_cast<std::size_t>(i * n + j)] != 0) coo.push_back(i, j, v[static_cast<std::size_t>(i * n + j)]);
    return sparse::coo_to_csr(coo);
  };
  EXPECT_THROW(Solver{dense(2, {1, 1, 0, 1})}, std::invalid_argument);  // entry above the diagonal
  EXPECT_THROW(Solver{dense(2, {1, 0, 1, 0})}, std::invalid_argument);  // missing diagonal in row 1
  Csr<double> stored_zero = dense(2, {1, 0, 1, 1});
  stored_zero.val.back() = 0;
  EXPECT_THROW(Solver{stored_zero}, sparse::SingularError);
  // 1e-50 is a fine double but 0 as a float.
  const Csr<double> tiny = dense(2, {1, 0, 1, 1e-50});
  if constexpr (std::is_same_v<Real, float>) EXPECT_THROW(Solver{tiny}, sparse::SingularError);
  else EXPECT_NO_THROW(Solver{tiny});

  Solver solver(chain(4));
  DeviceBuffer<Real> b(4), x(4);
  EXPECT_THROW(solver.solve(b.data(), x.data(), -1, nullptr), std::invalid_argument);
  EXPECT_THROW(solver.solve(nullptr, x.data(), 1, nullptr), std::invalid_argument);
}

}  // namespace
