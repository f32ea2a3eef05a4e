// Builders and checks shared by the triangular-solve tests (host and GPU).
#pragma once

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "sparse/convert.hpp"
#include "sparse/formats.hpp"
#include "sparse/matrix_market.hpp"
#include "sparse/transform.hpp"

namespace apiary::sptrsv::testing {

using sparse::Csr;
using sparse::index_t;

// Lower matrix of n vertices with the given edges (from, to); diagonal 2 + i, edge
// values -0.5 - 0.1 * from, so a wrong edge or order changes the solution.
inline Csr<double> from_edges(index_t n, const std::vector<std::pair<index_t, index_t>>& edges) {
  sparse::Coo<double> coo;
  coo.rows = coo.cols = n;
  for (index_t i = 0; i < n; ++i) coo.push_back(i, i, 2.0 + i);
  for (auto [j, i] : edges) coo.push_back(i, j, -0.5 - 0.1 * j);
  return sparse::coo_to_csr(coo);
}

inline Csr<double> chain(index_t n) {
  std::vector<std::pair<index_t, index_t>> edges;
  for (index_t i = 1; i < n; ++i) edges.emplace_back(i - 1, i);
  return from_edges(n, edges);
}

// A matrix of the same pattern with other values (refresh_values' tests): the entries
// scaled row by row, the diagonal by more, so that a dominant diagonal stays dominant.
inline Csr<double> revalued(Csr<double> a) {
  for (index_t i = 0; i < a.rows; ++i)
    for (index_t k = a.row_begin(i); k < a.row_end(i); ++k)
      a.val[k] *= a.col[k] == i ? 1.5 + 0.25 * std::sin(0.1 * i) : 0.5 + 0.4 * std::cos(0.37 * k);
  return a;
}

inline std::vector<double> rhs(index_t n, int columns = 1) {
  std::vector<double> b(static_cast<std::size_t>(n) * columns);
  for (std::size_t k = 0; k < b.size(); ++k) b[k] = 1.0 + 0.37 * ((k * 7919) % 13) - 0.5 * (k % 3);
  return b;
}

// max |x - ref| / max |ref| (the absolute difference when ref is 0); infinity when the
// sizes differ or x holds a NaN or infinity (an entry never written, say).
template <class A, class B>
double relative_error(const std::vector<A>& x, const std::vector<B>& ref) {
  if (x.size() != ref.size()) return INFINITY;
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!std::isfinite(static_cast<double>(x[i]))) return INFINITY;
    diff = std::max(diff, std::abs(static_cast<double>(x[i]) - static_cast<double>(ref[i])));
    norm = std::max(norm, std::abs(static_cast<double>(ref[i])));
  }
  return norm == 0 ? diff : diff / norm;
}

// The lower triangle (diagonal added where missing, then made dominant) of every square
// matrix in the shared folder, in name order; empty when the folder is absent.
inline std::vector<std::pair<std::string, Csr<double>>> shared_lower_triangles() {
  std::vector<std::pair<std::string, Csr<double>>> out;
  const std::filesystem::path dir = APIARY_SHARED_MATRICES;
  if (!std::filesystem::is_directory(dir)) return out;
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().string().ends_with(".mtx.gz")) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    const Csr<double> a = sparse::read_csr<double>(file);
    if (!a.is_square()) continue;
    out.emplace_back(file.filename().string(),
                     sparse::dominant_diagonal(sparse::lower_triangle(a, sparse::Diagonal::add_missing, 1.0)));
  }
  return out;
}

}  // namespace apiary::sptrsv::testing
