#include "tasks/pcg/ic0.hpp"

#include <fmt/format.h>

#include <cmath>
#include <vector>

namespace apiary::pcg {

namespace {

std::string breakdown_message(index_t row, double pivot, double shift) {
  return fmt::format(
      "IC(0) breaks down at row {} (0-based): pivot {:.3e} is not positive{}; the matrix is not positive definite "
      "or IC(0) is unstable for it: try a diagonal shift, e.g. --shift {}",
      row, pivot, shift > 0 ? fmt::format(" with --shift {}", shift) : std::string(),
      shift > 0 ? fmt::format("{}", shift * 10) : std::string("0.01"));
}

}  // namespace

Ic0Breakdown::Ic0Breakdown(index_t row, double pivot, double shift)
    : std::runtime_error(breakdown_message(row, pivot, shift)), row_(row), pivot_(pivot) {}

std::string with_original_row(const Ic0Breakdown& e, index_t original_row, const std::string& ordering) {
  const std::string what = e.what();
  const std::size_t at = what.find(" (0-based)");
  if (at == std::string::npos) return what;
  return what.substr(0, at) + fmt::format(" of the {}-ordered matrix (row {} of the input, 0-based)", ordering,
                                          original_row) +
         what.substr(at + std::string(" (0-based)").size());
}

Csr<double> ic0_reference(const Csr<double>& spd, double shift) {
  sparse::require_square(spd, "ic0_reference");
  if (!(shift >= 0)) throw std::invalid_argument(fmt::format("IC(0): the shift must be >= 0, got {}", shift));
  const index_t n = spd.rows;
  Csr<double> l;
  l.rows = l.cols = n;
  l.row_ptr.assign(static_cast<std::size_t>(n) + 1, 0);
  // Where row i's entries sit in `work` while row i is computed: pos[col] = slot, and
  // mark[col] = i says the slot belongs to this row.
  std::vector<index_t> mark(static_cast<std::size_t>(n), -1);
  std::vector<double> work(static_cast<std::size_t>(n), 0.0);
  for (index_t i = 0; i < n; ++i) {
    double diag = 0;
    const std::size_t first = l.col.size();
    for (index_t k = spd.row_begin(i); k < spd.row_end(i); ++k) {
      const index_t j = spd.col[k];
      if (j < i) {
        l.col.push_back(j);
        l.val.push_back(spd.val[k]);
        mark[j] = i;
        work[j] = spd.val[k];
      } else if (j == i) {
        diag = spd.val[k];
      }
    }
    // Entries of row i, columns ascending (sorted rows): L(i, m) for m < j is final in
    // `work` by the time L(i, j) is computed.
    double sum_squares = 0;
    for (std::size_t k = first; k < l.col.size(); ++k) {
      const index_t j = l.col[k];
      double s = work[j];
      const index_t row_j_diag = l.row_ptr[j + 1] - 1;  // the diagonal of row j is stored last
      for (index_t q = l.row_ptr[j]; q < row_j_diag; ++q) {
        const index_t m = l.col[q];
        if (mark[m] == i) s -= work[m] * l.val[q];
      }
      s /= l.val[row_j_diag];
      work[j] = s;
      l.val[k] = s;
      sum_squares += s * s;
    }
    const double pivot = diag * (1 + shift) - sum_squares;
    if (!(pivot > 0) || !std::isfinite(pivot)) throw Ic0Breakdown(i, pivot, shift);
    l.col.push_back(i);
    l.val.push_back(std::sqrt(pivot));
    l.row_ptr[i + 1] = static_cast<index_t>(l.col.size());
  }
  return l;
}

}  // namespace apiary::pcg
