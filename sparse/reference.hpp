// Serial reference algorithms: the oracles that the GPU kernels are tested against.
//
// Written for clarity and numerical care rather than speed: every sum is accumulated
// in double, also for float matrices, so that the oracle's own rounding stays well
// below the tolerance the GPU results are checked with.
#pragma once

#include <span>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "sparse/analysis.hpp"
#include "sparse/formats.hpp"

namespace apiary::sparse {

// A solver met a zero or missing diagonal. what() reads
// "zero diagonal at row R (0-based)" or "missing diagonal at row R (0-based)".
class SingularError : public std::runtime_error {
 public:
  SingularError(index_t row, bool missing);
  index_t row() const { return row_; }
  bool missing() const { return missing_; }  // no stored entry, as opposed to a stored zero

 private:
  index_t row_;
  bool missing_;
};

struct TriangularSolveOptions {
  Triangle triangle = Triangle::lower;
  bool unit_diagonal = false;
};

// Read-only vector argument. type_identity_t keeps it out of template deduction, so T
// comes from the matrix alone and a std::vector<T> argument converts implicitly.
template <class T>
using ValueSpan = std::span<const std::type_identity_t<T>>;

// Solves T x = b by forward (lower) or backward (upper) substitution, where T is the
// chosen triangle of the square matrix a; entries of the other triangle are ignored.
// With unit_diagonal the stored diagonal is ignored and taken as 1; otherwise a missing
// or zero diagonal throws SingularError naming the row. The solution is carried in
// double and rounded to T once at the end.
template <class T>
std::vector<T> triangular_solve(const Csr<T>& a, ValueSpan<T> b, TriangularSolveOptions o = {});

// y = A x.
template <class T>
std::vector<T> spmv(const Csr<T>& a, ValueSpan<T> x);

// ||b - A x||_2 / ||b||_2, or ||b - A x||_2 when b = 0.
template <class T>
double relative_residual(const Csr<T>& a, ValueSpan<T> x, ValueSpan<T> b);

struct JacobiOptions {
  double tolerance = 1e-6;
  int max_iterations = 1000;
  bool keep_history = false;
};

template <class T>
struct JacobiResult {
  std::vector<T> x;
  int iterations = 0;      // updates performed
  double last_change = 0;  // ||x^(k+1) - x^(k)||_1 of the last update
  bool converged = false;
  std::vector<std::vector<T>> history;  // x^(1), x^(2), ... when keep_history
};

// Jacobi iteration from x^(0) = (1, ..., 1):
//   x^(k+1)_i = (b_i - sum_{j != i} a_ij x^(k)_j) / a_ii,
// stopping after the first update with ||x^(k+1) - x^(k)||_1 < tolerance (converged) or
// after max_iterations updates (converged = false; not an error, the caller reports it).
// The iterate is stored as T between updates, as a GPU implementation holds it, so that
// iteration counts are comparable; each update is accumulated in double.
// A zero or missing diagonal throws SingularError before any update.
template <class T>
JacobiResult<T> jacobi(const Csr<T>& a, ValueSpan<T> b, JacobiOptions o = {});

}  // namespace apiary::sparse
