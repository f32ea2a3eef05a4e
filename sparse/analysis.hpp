// Structural analysis of sparse matrices: triangularity, level sets of the
// triangular-solve DAG, connected components, bandwidth/profile, degree statistics
// and diagonal dominance.
//
// Plain host C++; every function is O(rows + nnz) or close to it so that it can be
// run on the large SuiteSparse matrices that the GPU benchmarks use.
#pragma once

#include <cstdint>
#include <vector>

#include "sparse/formats.hpp"

namespace apiary::sparse {

enum class Triangle { lower, upper };

// True when every stored entry lies in the chosen triangle (diagonal included).
// Explicitly stored zeros count as entries: this is a statement about the pattern.
template <class T>
bool is_triangular(const Csr<T>& a, Triangle t);

// Rows i < min(rows, cols) with no stored (i, i), ascending. A stored zero is not missing.
template <class T>
std::vector<index_t> missing_diagonals(const Csr<T>& a);

// Level sets of the DAG of a sparse triangular solve: row i depends on row j when
// a_ij is stored in the chosen strict triangle (j < i for lower, j > i for upper).
// level[i] = 0 for rows without dependencies, else 1 + max level of its dependencies,
// so all rows of one level can be solved in parallel once the previous levels are done.
struct LevelSets {
  index_t count = 0;               // number of levels = critical path length in rows
  std::vector<index_t> level;      // per row, 0-based
  std::vector<index_t> size;       // rows per level
  std::vector<index_t> order;      // rows grouped by level, ascending row inside a level
  std::vector<index_t> level_ptr;  // count + 1 offsets into order

  index_t max_width() const;  // largest level size, 0 when there are no rows
};

// The matrix must be square (std::invalid_argument otherwise). Entries of the other
// triangle and the diagonal are ignored, so a full matrix gives the levels of tril(A)
// or triu(A).
template <class T>
LevelSets level_sets(const Csr<T>& a, Triangle t);

// The levels alone (LevelSets::level into `level`, resized to the rows), returning their
// count: the one pass of level_sets that its grouping of the rows follows.
template <class T>
index_t row_levels(const Csr<T>& a, Triangle t, std::vector<index_t>& level);

// Weakly connected components of the graph of a square matrix: i ~ j when a_ij or
// a_ji is stored (direction ignored, self-loops irrelevant).
struct Components {
  index_t count = 0;
  std::vector<index_t> label;  // per vertex; components numbered by their smallest vertex
  std::vector<index_t> size;   // vertices per component
};

// On up to `threads` threads (0: one per hardware thread), in ranges of rows of at least
// 2^16 entries; the result is the same.
template <class T>
Components weakly_connected_components(const Csr<T>& a, unsigned threads = 1);

// max |i - j| over stored entries; 0 for an empty or diagonal matrix.
template <class T>
index_t bandwidth(const Csr<T>& a);

// Envelope size (profile) in the sense of George & Liu: sum over rows of (i - f_i) with
// f_i = min(i, first stored column of row i). Only the part left of the diagonal is
// counted, so for a symmetric pattern this is the size of the lower envelope; for an
// unsymmetric one, symmetrize first if the envelope of A + A^T is wanted. Rows that are
// empty or start at or right of the diagonal contribute 0.
template <class T>
std::int64_t profile(const Csr<T>& a);

// Statistics of the row lengths (stored entries per row, diagonal included).
struct DegreeStats {
  index_t min = 0;
  index_t max = 0;
  double mean = 0;
  index_t empty_rows = 0;
};

template <class T>
DegreeStats degree_stats(const Csr<T>& a);

// Weak row diagonal dominance: |a_ii| >= sum_{j != i} |a_ij| for every row (a missing
// diagonal counts as 0). Square matrices only (std::invalid_argument otherwise).
template <class T>
bool is_diagonally_dominant(const Csr<T>& a);

}  // namespace apiary::sparse
