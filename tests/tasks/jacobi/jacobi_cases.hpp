// Matrices shared by the Jacobi host and GPU tests.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include "sparse/convert.hpp"
#include "sparse/formats.hpp"
#include "sparse/generators.hpp"

namespace apiary::jacobi::testing {

using sparse::index_t;

// A random diagonally dominant matrix in which `long_rows` rows are replaced by rows of
// `long_length` entries (random distinct columns plus the diagonal), still strictly
// diagonally dominant. Rows longer than the nnz budget exercise the split rows.
inline sparse::Csr<double> with_long_rows(index_t n, index_t min_per_row, index_t max_per_row,
                                          std::span<const index_t> long_rows, index_t long_length,
                                          std::uint64_t seed = 7) {
  const sparse::Csr<double> base = sparse::random_diagonally_dominant<double>(n, min_per_row, max_per_row, seed);
  std::mt19937_64 rng(seed + 1);
  sparse::Coo<double> c;
  c.rows = n;
  c.cols = n;
  for (index_t i = 0; i < n; ++i) {
    if (std::find(long_rows.begin(), long_rows.end(), i) == long_rows.end()) {
      for (index_t k = base.row_begin(i); k < base.row_end(i); ++k) c.push_back(i, base.col[k], base.val[k]);
      continue;
    }
    std::vector<index_t> cols;
    cols.reserve(static_cast<std::size_t>(n));
    for (index_t j = 0; j < n; ++j)
      if (j != i) cols.push_back(j);
    std::shuffle(cols.begin(), cols.end(), rng);
    cols.resize(static_cast<std::size_t>(std::min<index_t>(long_length - 1, n - 1)));
    double off = 0;
    for (index_t j : cols) {
      const double v = (static_cast<double>(rng() >> 11) * 0x1.0p-53 + 0.1) * ((rng() & 1u) ? -1.0 : 1.0);
      off += std::abs(v);
      c.push_back(i, j, v);
    }
    c.push_back(i, i, 1.5 * off + 1.0);
  }
  return sparse::coo_to_csr(c);
}

// The largest |a_i - b_i| relative to the largest |b_i| (1 when b is zero).
inline double relative_difference(std::span<const double> a, std::span<const double> b) {
  double diff = 0;
  double scale = 0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    diff = std::max(diff, std::abs(a[i] - b[i]));
    scale = std::max(scale, std::abs(b[i]));
  }
  if (a.size() != b.size()) return INFINITY;
  return diff / (scale > 0 ? scale : 1.0);
}

// How far two computations of ||x(k+1) - x(k)||_1 may differ when their iterates agree
// to rounding: each |x(k+1)_i - x(k)_i| carries an absolute error of a few ulps of x_i,
// so the bound scales with ||x||_1, not with the (small, near convergence) change.
inline double change_tolerance(std::span<const double> x) {
  double norm = 0;
  for (double v : x) norm += std::abs(v);
  return 1e-12 * std::max(1.0, norm);
}

// ||x(k+1) - x(k)||_1 of every step of a history that starts at x(0) = 1.
inline std::vector<double> changes_of(const std::vector<std::vector<double>>& history, std::size_t n) {
  std::vector<double> out;
  std::vector<double> prev(n, 1.0);
  for (const auto& x : history) {
    double s = 0;
    for (std::size_t i = 0; i < n; ++i) s += std::abs(x[i] - prev[i]);
    out.push_back(s);
    prev = x;
  }
  return out;
}

}  // namespace apiary::jacobi::testing
