// Deterministic test matrices: model problems, random SPD / diagonally dominant
// matrices and lower-triangular DAGs with a prescribed level count and component count.
//
// Random generators draw from std::mt19937_64 through their own integer/real mapping
// (not std::uniform_*_distribution, whose output differs between standard libraries), so
// a seed gives the same matrix on every platform. All matrices are built row by row
// straight into CSR (sorted rows, no duplicates). Off-diagonal random values are
// +-[0.1, 1], so no stored entry is zero. Sizes are checked against the 32-bit index
// range (SizeError) before anything is allocated; other bad arguments throw
// std::invalid_argument.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "sparse/formats.hpp"

namespace apiary::sparse {

// 5-point Laplacian on an nx x ny grid, natural order (row = y * nx + x): 4 on the
// diagonal, -1 for each grid neighbour. Symmetric positive definite.
template <class T = double>
Csr<T> poisson2d(index_t nx, index_t ny);

// 7-point Laplacian, row = (z * ny + y) * nx + x: 6 on the diagonal, -1 off it.
template <class T = double>
Csr<T> poisson3d(index_t nx, index_t ny, index_t nz);

// Symmetric with about nnz_per_row entries per row (1 <= nnz_per_row <= n): each row
// draws (nnz_per_row - 1) / 2 random columns below the diagonal on average (randomly
// rounded) and the pattern is mirrored; the diagonal is the row's absolute off-diagonal sum + 1, so
// the matrix is strictly diagonally dominant with a positive diagonal, hence SPD (eigenvalues >=
// 1).
template <class T = double>
Csr<T> random_spd(index_t n, index_t nnz_per_row, std::uint64_t seed);

// Unsymmetric pattern: row i holds the diagonal plus (len - 1) random distinct columns,
// len uniform in [min_per_row, max_per_row] (1 <= min <= max <= n). The diagonal is
// 1.5 * (absolute off-diagonal sum) + 1, so Jacobi contracts by at most 2/3 per sweep
// in the infinity norm.
template <class T = double>
Csr<T> random_diagonally_dominant(index_t n, index_t min_per_row, index_t max_per_row,
                                  std::uint64_t seed);

struct DagSpec {
  index_t rows;
  index_t levels;
  index_t components = 1;
  double extra_edges_per_row = 2.0;  // mean extra dependencies per row at level > 0
};

// Lower-triangular matrix whose forward solve has exactly spec.levels level sets and
// whose graph has exactly spec.components weakly connected components.
//
// Components are interleaved: row g belongs to component g % components, so component
// sizes differ by at most one and the blocks are hidden in the ordering. Every component
// of at least `levels` rows has exactly `levels` levels (a smaller one has one level per
// row), so levels <= ceil(rows / components) is required, and levels == 1 (a diagonal
// matrix) requires components == rows. Inside a component the level-0 rows come first
// (at most half of the component); rows of higher levels are interleaved, a level-k row
// may follow a level-(k+1) row. A row at level k > 0 depends on one earlier row at level k-1 of its
// component, on about extra_edges_per_row earlier rows of random lower levels, and
// possibly on one level-0 row that ties a still separate piece of the component in.
// Diagonal = absolute off-diagonal sum + 1.
template <class T = double>
Csr<T> random_lower_dag(const DagSpec& spec, std::uint64_t seed);

// The TASSL paper's synthetic case: `components` diagonal blocks of size `size`, laid
// out contiguously. Row i of a block holds round(density * i) (randomly rounded) distinct
// random columns of the block's strictly lower part, so `density` in (0, 1] is the
// expected fraction of strictly-lower entries present; diagonal = absolute off-diagonal
// sum + 1.
template <class T = double>
Csr<T> block_diagonal_lower(index_t components, index_t size, double density, std::uint64_t seed);

// Every entry with -lower_bandwidth <= j - i <= upper_bandwidth is stored (bandwidths
// >= 0; larger than n - 1 means full); diagonal = absolute off-diagonal sum + 1.
template <class T = double>
Csr<T> banded(index_t n, index_t lower_bandwidth, index_t upper_bandwidth, std::uint64_t seed);

// Spec strings, as accepted on the command line; see generator_help() for the forms.
// True when the text before the first ':' names a generator. Every form has at least
// one field, so text without ':' is never a spec (it is taken as a path).
bool is_generator_spec(std::string_view s);

// Builds the matrix a spec describes. Any malformed spec (unknown name, missing, extra or
// non-numeric fields, out-of-range values, sizes beyond 32-bit indices) throws
// std::invalid_argument whose message says what is wrong and lists the accepted forms.
template <class T = double>
Csr<T> generate(std::string_view spec);

// Multi-line description of the accepted spec forms, for --help.
std::string generator_help();

}  // namespace apiary::sparse
