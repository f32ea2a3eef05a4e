// Sparse matrix containers: COO, CSR and CSC with 32-bit indices.
//
// Plain host C++ (no CUDA needed). Values are float or double. Index arrays are
// 32-bit because the device kernels use 32-bit indices; check_fits_index() refuses
// anything that would overflow them before a container is built.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace apiary::sparse {

using index_t = std::int32_t;

// Thrown for sizes that do not fit the 32-bit index type.
class SizeError : public std::length_error {
 public:
  using std::length_error::length_error;
};

// Refuses dimensions or entry counts that do not fit index_t (row_ptr holds nnz too).
inline void check_fits_index(std::int64_t rows, std::int64_t cols, std::int64_t nnz,
                             const std::string& what) {
  constexpr std::int64_t limit = std::numeric_limits<index_t>::max();
  if (rows < 0 || cols < 0 || nnz < 0)
    throw SizeError(what + ": negative size");
  if (rows > limit || cols > limit || nnz > limit)
    throw SizeError(what + ": " + std::to_string(rows) + " x " + std::to_string(cols) + " with " +
                    std::to_string(nnz) + " entries does not fit 32-bit indices (limit " +
                    std::to_string(limit) + ")");
}

// Coordinate format: unordered triplets, duplicates allowed until converted.
template <class T>
struct Coo {
  index_t rows = 0;
  index_t cols = 0;
  std::vector<index_t> row;
  std::vector<index_t> col;
  std::vector<T> val;

  std::size_t nnz() const { return val.size(); }
  void push_back(index_t r, index_t c, T v) {
    row.push_back(r);
    col.push_back(c);
    val.push_back(v);
  }
};

// Compressed sparse row. Invariant after every function of this library that
// returns one: column indices strictly increasing within each row (sorted, no duplicates).
template <class T>
struct Csr {
  index_t rows = 0;
  index_t cols = 0;
  std::vector<index_t> row_ptr{0};  // rows + 1 entries
  std::vector<index_t> col;
  std::vector<T> val;

  std::size_t nnz() const { return col.size(); }
  index_t row_begin(index_t r) const { return row_ptr[r]; }
  index_t row_end(index_t r) const { return row_ptr[r + 1]; }
  index_t row_length(index_t r) const { return row_ptr[r + 1] - row_ptr[r]; }
  bool is_square() const { return rows == cols; }
};

// Compressed sparse column; row indices strictly increasing within each column.
template <class T>
struct Csc {
  index_t rows = 0;
  index_t cols = 0;
  std::vector<index_t> col_ptr{0};  // cols + 1 entries
  std::vector<index_t> row;
  std::vector<T> val;

  std::size_t nnz() const { return row.size(); }
};

// For algorithms defined on square matrices only: std::invalid_argument naming the caller.
template <class T>
void require_square(const Csr<T>& a, const char* what) {
  if (!a.is_square())
    throw std::invalid_argument(std::string(what) + ": matrix is " + std::to_string(a.rows) + " x " +
                                std::to_string(a.cols) + ", expected square");
}

}  // namespace apiary::sparse
