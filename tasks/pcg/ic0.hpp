// Incomplete Cholesky without fill, IC(0), on the host: L lower triangular with the
// pattern of tril(A), such that (L L^T)(i, j) = A(i, j) wherever tril(A) has an entry.
//
// The factor is computed on the host and uploaded (not with cuSPARSE csric02): it is
// deterministic, the same L feeds every GPU formulation and the host reference, so
// their iteration counts can be compared, and the breakdown row is known exactly. The
// factorization time is therefore host time, and is reported as such (docs/pcg.md).
#pragma once

#include <stdexcept>
#include <string>

#include "sparse/formats.hpp"

namespace apiary::pcg {

using sparse::Csr;
using sparse::index_t;

// IC(0) met a pivot that is not positive (or not finite). what() names the row, the
// pivot and suggests a diagonal shift (--shift).
class Ic0Breakdown : public std::runtime_error {
 public:
  Ic0Breakdown(index_t row, double pivot, double shift);
  index_t row() const { return row_; }
  double pivot() const { return pivot_; }

 private:
  index_t row_;
  double pivot_;
};

// IC(0) of A + shift * diag(A) (shift >= 0; a relative shift keeps the factor's
// scale-invariance) using the lower triangle of the square matrix a only; the upper
// triangle is ignored, symmetry is the caller's business. The result has sorted rows
// with the diagonal stored last in every row. Row i, left-looking, in the order of its
// entries:
//   L(i, j) = (A(i, j) - sum_{m < j} L(i, m) L(j, m)) / L(j, j)     for j < i in tril(A)
//   L(i, i) = sqrt(A(i, i) (1 + shift) - sum_{m < i} L(i, m)^2)
// with sums over the pattern only. Throws Ic0Breakdown when the value under the root is
// not positive (a missing diagonal counts as 0), std::invalid_argument for a non-square
// matrix or a negative shift.
Csr<double> ic0_reference(const Csr<double>& spd, double shift = 0);

// One line for the error reports: "<what> (row R of the input matrix)" when the
// factorization ran on a permuted matrix. Helper for callers that permuted A first.
std::string with_original_row(const Ic0Breakdown& e, index_t original_row, const std::string& ordering);

}  // namespace apiary::pcg
