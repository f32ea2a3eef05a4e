#include "tasks/pcg/pcg_reference.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <stdexcept>

#include "sparse/convert.hpp"
#include "sparse/reference.hpp"

namespace apiary::pcg {

std::string_view to_string(Stop s) {
  switch (s) {
    case Stop::converged: return "converged";
    case Stop::max_iterations: return "max-iterations";
    case Stop::breakdown: return "breakdown";
  }
  return "?";
}

std::vector<double> positive_diagonal(const Csr<double>& a) {
  sparse::require_square(a, "Jacobi preconditioner");
  std::vector<double> d(static_cast<std::size_t>(a.rows), 0.0);
  for (index_t i = 0; i < a.rows; ++i)
    for (index_t k = a.row_begin(i); k < a.row_end(i); ++k)
      if (a.col[k] == i) d[i] = a.val[k];
  for (index_t i = 0; i < a.rows; ++i)
    if (!(d[i] > 0) || !std::isfinite(d[i]))
      throw std::invalid_argument(fmt::format(
          "Jacobi preconditioner: diagonal entry of row {} (0-based) is {} (missing counts as 0), not positive: "
          "the matrix is not positive definite",
          i, d[i]));
  return d;
}

int checked_iteration_limit(const PcgOptions& o, index_t n) {
  if (!(o.tolerance > 0)) throw std::invalid_argument(fmt::format("pcg: --tol must be positive, got {}", o.tolerance));
  if (o.max_iterations < 0)
    throw std::invalid_argument(fmt::format("pcg: --max-iter must be >= 0 (0: n), got {}", o.max_iterations));
  return o.max_iterations == 0 ? static_cast<int>(n) : o.max_iterations;
}

std::string max_iterations_reason(int iterations, double residual, double tolerance) {
  return fmt::format("not converged after {} iterations: ||r||/||b|| = {:.3e}, tolerance {:.1e}", iterations, residual,
                     tolerance);
}

std::string breakdown_reason(std::string_view what, int iteration, double value) {
  return fmt::format("breakdown at iteration {}: {} = {:.3e} is not positive (or not finite); the matrix or the "
                     "preconditioner is not positive definite",
                     iteration, what, value);
}

bool breaks_down(PcgResult& res, std::string_view what, int k, double value) {
  if (value > 0 && std::isfinite(value)) return false;
  res.stop = Stop::breakdown;
  res.reason = breakdown_reason(what, k, value);
  return true;
}

bool stops_after(PcgResult& res, int k, double residual, double tolerance, int limit) {
  res.iterations = k;
  res.residual = residual;
  res.history.push_back(residual);
  if (!std::isfinite(residual)) {
    res.stop = Stop::breakdown;
    res.reason = breakdown_reason("||r||", k, residual);
    return true;
  }
  if (residual < tolerance) {
    res.stop = Stop::converged;
    return true;
  }
  return k == limit;
}

namespace {

double dot(const std::vector<double>& u, const std::vector<double>& v) {
  double s = 0;
  for (std::size_t i = 0; i < u.size(); ++i) s += u[i] * v[i];
  return s;
}

}  // namespace

PcgResult pcg_reference(const Csr<double>& a, std::span<const double> b, HostPreconditioner m,
                        const Csr<double>* factor, const PcgOptions& o) {
  sparse::require_square(a, "pcg_reference");
  const index_t n = a.rows;
  if (b.size() != static_cast<std::size_t>(n))
    throw std::invalid_argument(fmt::format("pcg_reference: b has {} entries, the matrix {} rows", b.size(), n));
  const int limit = checked_iteration_limit(o, n);
  if (m == HostPreconditioner::ic0 && (factor == nullptr || factor->rows != n))
    throw std::invalid_argument("pcg_reference: ic0 needs the factor L of the matrix");
  std::vector<double> diag;
  if (m == HostPreconditioner::jacobi) diag = positive_diagonal(a);
  Csr<double> upper;  // L^T
  if (m == HostPreconditioner::ic0) upper = sparse::transpose(*factor);

  const auto apply = [&](const std::vector<double>& r) {
    switch (m) {
      case HostPreconditioner::none: return r;
      case HostPreconditioner::jacobi: {
        std::vector<double> z(r.size());
        for (std::size_t i = 0; i < r.size(); ++i) z[i] = r[i] / diag[i];
        return z;
      }
      case HostPreconditioner::ic0: {
        const std::vector<double> y = sparse::triangular_solve(*factor, std::span<const double>(r));
        return sparse::triangular_solve(upper, std::span<const double>(y), {.triangle = sparse::Triangle::upper});
      }
    }
    return r;
  };

  const auto t0 = std::chrono::steady_clock::now();
  PcgResult res;
  res.x.assign(static_cast<std::size_t>(n), 0.0);
  std::vector<double> r(b.begin(), b.end());
  const double b_norm = std::sqrt(dot(r, r));
  if (b_norm == 0) {
    res.stop = Stop::converged;
    return res;
  }
  std::vector<double> z = apply(r);
  std::vector<double> p = z;
  double rz = dot(r, z);
  res.residual = 1;
  res.stop = Stop::max_iterations;
  for (int k = 1; k <= limit; ++k) {
    const std::vector<double> q = sparse::spmv(a, std::span<const double>(p));
    const double pq = dot(p, q);
    if (breaks_down(res, "p.Ap", k, pq)) break;
    const double alpha = rz / pq;
    for (index_t i = 0; i < n; ++i) {
      res.x[i] += alpha * p[i];
      r[i] -= alpha * q[i];
    }
    if (stops_after(res, k, std::sqrt(dot(r, r)) / b_norm, o.tolerance, limit)) break;
    z = apply(r);
    const double rz_next = dot(r, z);
    if (breaks_down(res, "r.z", k, rz_next)) break;
    const double beta = rz_next / rz;
    rz = rz_next;
    for (index_t i = 0; i < n; ++i) p[i] = z[i] + beta * p[i];
  }
  if (res.stop == Stop::max_iterations) res.reason = max_iterations_reason(res.iterations, res.residual, o.tolerance);
  res.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return res;
}

}  // namespace apiary::pcg
