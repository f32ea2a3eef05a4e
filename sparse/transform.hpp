// Structural transforms on CSR matrices: row sorting, symmetrization, triangles and
// permutations.
//
// Permutation convention, used by every function here: perm[new_index] = old_index.
// So permute_vector gives y[i] = x[perm[i]], and permute_symmetric gives
// B(i, j) = A(perm[i], perm[j]), i.e. B = P A P^T with P(i, perm[i]) = 1. A fill-reducing
// or level ordering that lists "which old row comes first, second, ..." is already in
// this form; its inverse (inverse_permutation) maps an old index to its new position.
//
// Every function that returns a Csr returns it with sorted rows and no duplicates,
// and (except sort_rows) expects its input to satisfy the same invariant.
#pragma once

#include <span>
#include <vector>

#include "sparse/formats.hpp"

namespace apiary::sparse {

// For a CSR assembled by hand: checks the arrays are consistent (std::invalid_argument
// otherwise), sorts each row by column and sums duplicate entries in their stored order.
template <class T>
Csr<T> sort_rows(Csr<T> a);

// Pattern of A + A^T for a square A (std::invalid_argument otherwise). Entries of A keep
// their values; entries present only in A^T are explicit zeros, so the matrix is
// numerically unchanged and only gains structural zeros.
template <class T>
Csr<T> symmetrize_pattern(const Csr<T>& a);

// False for non-square matrices.
template <class T>
bool is_pattern_symmetric(const Csr<T>& a);

// Pattern and values (compared exactly); false for non-square matrices.
template <class T>
bool is_symmetric(const Csr<T>& a);

// What a triangle extraction does with the diagonal. For a rectangular matrix the
// diagonal is (i, i) for i < min(rows, cols).
enum class Diagonal {
  keep,        // as stored
  drop,        // removed
  unit,        // every diagonal entry 1, inserted where missing (fill is ignored)
  add_missing  // stored entries kept, `fill` inserted where missing
};

template <class T>
Csr<T> lower_triangle(const Csr<T>& a, Diagonal d = Diagonal::keep, T fill = T(1));

// Every stored diagonal entry set to 1 + the absolute sum of its row's other entries, so
// the matrix (and each of its triangles) is strictly diagonally dominant and a solve with
// it well conditioned; rows without a stored diagonal are left alone. Benchmarks and tests
// use it to keep a real matrix's pattern while making its values safe to solve with.
template <class T>
Csr<T> dominant_diagonal(Csr<T> a);
template <class T>
Csr<T> upper_triangle(const Csr<T>& a, Diagonal d = Diagonal::keep, T fill = T(1));

// True when perm holds each of 0 .. perm.size()-1 exactly once.
bool is_permutation(std::span<const index_t> perm);

// inv[perm[i]] = i; std::invalid_argument if perm is not a permutation.
std::vector<index_t> inverse_permutation(std::span<const index_t> perm);

// B = P A P^T, B(i, j) = A(perm[i], perm[j]); A square, perm of length rows.
template <class T>
Csr<T> permute_symmetric(const Csr<T>& a, std::span<const index_t> perm);

// Row i of the result is row perm[i] of A; columns unchanged.
template <class T>
Csr<T> permute_rows(const Csr<T>& a, std::span<const index_t> perm);

// y[i] = x[perm[i]].
template <class T>
std::vector<T> permute_vector(std::span<const T> x, std::span<const index_t> perm);

}  // namespace apiary::sparse
