#include "sparse/reference.hpp"

#include <cmath>
#include <string>

namespace apiary::sparse {

namespace {

std::string singular_message(index_t row, bool missing) {
  return std::string(missing ? "missing" : "zero") + " diagonal at row " + std::to_string(row) +
         " (0-based)";
}

void require_length(std::size_t got, index_t want, const char* what, const char* name) {
  if (got != static_cast<std::size_t>(want))
    throw std::invalid_argument(std::string(what) + ": " + name + " has " + std::to_string(got) +
                                " entries, expected " + std::to_string(want));
}

// Position of the stored diagonal of row i, or -1.
template <class T>
index_t find_diagonal(const Csr<T>& a, index_t i) {
  index_t lo = a.row_begin(i);
  index_t hi = a.row_end(i);
  while (lo < hi) {
    const index_t mid = lo + (hi - lo) / 2;
    if (a.col[mid] < i)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < a.row_end(i) && a.col[lo] == i ? lo : -1;
}

template <class T>
double checked_diagonal(const Csr<T>& a, index_t i) {
  const index_t k = find_diagonal(a, i);
  if (k < 0) throw SingularError(i, true);
  const double d = a.val[k];
  if (d == 0) throw SingularError(i, false);
  return d;
}

}  // namespace

SingularError::SingularError(index_t row, bool missing)
    : std::runtime_error(singular_message(row, missing)), row_(row), missing_(missing) {}

template <class T>
std::vector<T> triangular_solve(const Csr<T>& a, ValueSpan<T> b, TriangularSolveOptions o) {
  require_square(a, "triangular_solve");
  require_length(b.size(), a.rows, "triangular_solve", "b");
  const index_t n = a.rows;
  const bool lower = o.triangle == Triangle::lower;
  std::vector<double> x(static_cast<std::size_t>(n));
  for (index_t step = 0; step < n; ++step) {
    const index_t i = lower ? step : n - 1 - step;
    double s = b[i];
    double diag = 1;
    bool has_diag = false;
    for (index_t k = a.row_begin(i); k < a.row_end(i); ++k) {
      const index_t j = a.col[k];
      if (j == i) {
        diag = a.val[k];
        has_diag = true;
      } else if (lower ? j < i : j > i) {
        s -= static_cast<double>(a.val[k]) * x[j];
      }
    }
    if (!o.unit_diagonal) {
      // The first singular row in solve order is the one reported.
      if (!has_diag) throw SingularError(i, true);
      if (diag == 0) throw SingularError(i, false);
      s /= diag;
    }
    x[i] = s;
  }
  return std::vector<T>(x.begin(), x.end());
}

template <class T>
std::vector<T> spmv(const Csr<T>& a, ValueSpan<T> x) {
  require_length(x.size(), a.cols, "spmv", "x");
  std::vector<T> y(static_cast<std::size_t>(a.rows));
  for (index_t i = 0; i < a.rows; ++i) {
    double s = 0;
    for (index_t k = a.row_begin(i); k < a.row_end(i); ++k)
      s += static_cast<double>(a.val[k]) * x[a.col[k]];
    y[i] = static_cast<T>(s);
  }
  return y;
}

template <class T>
double relative_residual(const Csr<T>& a, ValueSpan<T> x, ValueSpan<T> b) {
  require_length(x.size(), a.cols, "relative_residual", "x");
  require_length(b.size(), a.rows, "relative_residual", "b");
  // Computed here rather than through spmv so that A x is never rounded to T.
  double r2 = 0;
  double b2 = 0;
  for (index_t i = 0; i < a.rows; ++i) {
    double s = b[i];
    for (index_t k = a.row_begin(i); k < a.row_end(i); ++k)
      s -= static_cast<double>(a.val[k]) * x[a.col[k]];
    r2 += s * s;
    b2 += static_cast<double>(b[i]) * b[i];
  }
  return b2 == 0 ? std::sqrt(r2) : std::sqrt(r2 / b2);
}

template <class T>
JacobiResult<T> jacobi(const Csr<T>& a, ValueSpan<T> b, JacobiOptions o) {
  require_square(a, "jacobi");
  require_length(b.size(), a.rows, "jacobi", "b");
  if (o.max_iterations < 0) throw std::invalid_argument("jacobi: negative max_iterations");
  const index_t n = a.rows;
  std::vector<double> inv_diag(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) inv_diag[i] = 1.0 / checked_diagonal(a, i);

  JacobiResult<T> r;
  r.x.assign(static_cast<std::size_t>(n), T(1));
  std::vector<T> next(static_cast<std::size_t>(n));
  while (r.iterations < o.max_iterations) {
    double change = 0;
    for (index_t i = 0; i < n; ++i) {
      double s = b[i];
      for (index_t k = a.row_begin(i); k < a.row_end(i); ++k)
        if (a.col[k] != i) s -= static_cast<double>(a.val[k]) * r.x[a.col[k]];
      next[i] = static_cast<T>(s * inv_diag[i]);
      change += std::abs(static_cast<double>(next[i]) - static_cast<double>(r.x[i]));
    }
    r.x.swap(next);
    ++r.iterations;
    r.last_change = change;
    if (o.keep_history) r.history.push_back(r.x);
    if (change < o.tolerance) {
      r.converged = true;
      break;
    }
  }
  return r;
}

#define APIARY_INSTANTIATE(T)                                                                    \
  template std::vector<T> triangular_solve(const Csr<T>&, ValueSpan<T>, TriangularSolveOptions); \
  template std::vector<T> spmv(const Csr<T>&, ValueSpan<T>);                                     \
  template double relative_residual(const Csr<T>&, ValueSpan<T>, ValueSpan<T>);                  \
  template JacobiResult<T> jacobi(const Csr<T>&, ValueSpan<T>, JacobiOptions);

APIARY_INSTANTIATE(float)
APIARY_INSTANTIATE(double)
#undef APIARY_INSTANTIATE

}  // namespace apiary::sparse
