// The host side of a Jacobi solve: A split into its diagonal (kept as 1 / a_ii, extracted
// once) and its off-diagonal part, the right-hand sides, facts worth a warning
// (diagonal dominance), the traffic model behind the bandwidth figure, and a host model
// of the device iteration that reproduces the device's arithmetic exactly. Plain host C++.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sparse/formats.hpp"
#include "tasks/jacobi/partition.hpp"

namespace apiary::jacobi {

// A without its diagonal, plus 1 / a_ii (the same double sparse::jacobi multiplies by).
struct JacobiProblem {
  index_t n = 0;
  std::vector<index_t> row_ptr{0};  // off-diagonal CSR: n + 1 entries
  std::vector<index_t> col;
  std::vector<double> val;
  std::vector<double> inv_diag;
  std::size_t nnz_a = 0;  // entries of A, diagonal included

  std::size_t nnz_off() const { return col.size(); }
};

// Splits A. Throws std::invalid_argument for a non-square or empty matrix, and
// sparse::SingularError ("zero diagonal at row R (0-based)" / "missing diagonal at ...")
// for the first row without a usable diagonal, before anything runs.
JacobiProblem split_diagonal(const sparse::Csr<double>& a);

// How far A is from (strict, by rows) diagonal dominance: the largest ratio
// sum_{j != i} |a_ij| / |a_ii| and its row. Jacobi converges for any x(0) when every
// ratio is below 1.
struct Dominance {
  bool strict = true;  // every ratio < 1
  bool weak = true;    // every ratio <= 1
  index_t worst_row = 0;
  double worst_ratio = 0;
};
Dominance diagonal_dominance(const sparse::Csr<double>& a);

// One line for the CLI, or nothing when A is strictly diagonally dominant.
std::optional<std::string> dominance_warning(const Dominance& d);

enum class Rhs { ones, random };
std::string_view to_string(Rhs rhs);
std::optional<Rhs> parse_rhs(std::string_view text);
// b = (1, ..., 1), or uniform in [-1, 1) from a fixed seed (the same on every platform).
std::vector<double> make_rhs(Rhs kind, index_t n, std::uint64_t seed = 1);

// Bytes one iteration must move at least: every off-diagonal entry (value and column
// index), and per row its row pointer, 1 / a_ii, b_i, x_i read once and x_i written.
double bytes_per_iteration(const JacobiProblem& p);

// ---- the dependency graph of the checkpoints variant ----
//
// A unit is a chunk of whole rows, or all pieces of one split row. Units u and v are
// adjacent when a row of one has an off-diagonal entry in a column of the other (in
// either direction: the relation is symmetric, which also protects the ring of x
// versions from being overwritten while a neighbour still reads it). A row task of
// iteration k+1 waits for one resolve per adjacent unit (from the task that completed
// that unit's rows in iteration k), plus, for a piece, one from its own row's combiner.
struct ChunkGraph {
  std::int32_t units = 0;
  std::vector<std::int32_t> unit;          // per chunk
  std::vector<std::int32_t> wait_count;    // per chunk: resolves its next task waits for
  std::vector<std::int32_t> consumer_ptr;  // per unit + 1, into consumers
  std::vector<std::int32_t> consumers;     // chunks the unit's finisher resolves, per unit
};
// Throws std::length_error when the consumer lists do not fit 32-bit offsets.
ChunkGraph chunk_graph(const JacobiProblem& p, const Partition& part);

// ---- host model of the device iteration ----
//
// The device computes every row with a fixed association order (lanes stride over the
// row, then a butterfly over the lanes; see device.cuh), adds the pieces of a split row
// in piece order, and sums the per-chunk changes with a fixed tree. These functions do
// the same in the same order, so the device's iterates and changes equal them bit for
// bit (IEEE double, no fused multiply-add on either side). They are the reference for
// "the work distribution on the device is right", while sparse::jacobi is the reference
// for "this is Jacobi".

// x_new from x_old for every chunk; `partials[c]` gets chunk c's share of
// ||x_new - x_old||_1 (the change of a split row goes to the slot of its first piece).
void model_iteration(const JacobiProblem& p, const Partition& part, std::span<const double> b,
                     std::span<const double> x_old, std::span<double> x_new, std::span<double> partials);

// The check's sum of the per-chunk changes.
double model_reduce(std::span<const double> partials);

struct ModelRun {
  std::vector<double> x;
  int iterations = 0;
  double last_change = 0;
  bool converged = false;
  std::vector<double> changes;               // one per iteration
  std::vector<std::vector<double>> history;  // x(1), x(2), ... when asked for
};
ModelRun model_solve(const JacobiProblem& p, const Partition& part, std::span<const double> b, double tolerance,
                     int max_iterations, bool keep_history = false);

}  // namespace apiary::jacobi
