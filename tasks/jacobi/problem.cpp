#include "tasks/jacobi/problem.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "sparse/reference.hpp"

// This file must not contract a * b + c into fused multiply-adds: the model reproduces
// the device's separately rounded __dmul_rn / __dadd_rn (CMake passes -ffp-contract=off).

namespace apiary::jacobi {

JacobiProblem split_diagonal(const sparse::Csr<double>& a) {
  sparse::require_square(a, "jacobi");
  if (a.rows == 0) throw std::invalid_argument("jacobi: the matrix is empty");
  JacobiProblem p;
  p.n = a.rows;
  p.nnz_a = a.nnz();
  p.row_ptr.assign(static_cast<std::size_t>(a.rows) + 1, 0);
  p.col.reserve(a.nnz() >= static_cast<std::size_t>(a.rows) ? a.nnz() - static_cast<std::size_t>(a.rows) : 0);
  p.val.reserve(p.col.capacity());
  p.inv_diag.assign(static_cast<std::size_t>(a.rows), 0.0);
  for (index_t i = 0; i < a.rows; ++i) {
    bool found = false;
    double diag = 0;
    for (index_t k = a.row_begin(i); k < a.row_end(i); ++k) {
      if (a.col[k] == i) {
        found = true;
        diag = a.val[k];  // CSR rows hold no duplicates (formats.hpp)
      } else {
        p.col.push_back(a.col[k]);
        p.val.push_back(a.val[k]);
      }
    }
    if (!found) throw sparse::SingularError(i, true);
    if (diag == 0) throw sparse::SingularError(i, false);
    p.inv_diag[static_cast<std::size_t>(i)] = 1.0 / diag;
    p.row_ptr[static_cast<std::size_t>(i) + 1] = static_cast<index_t>(p.col.size());
  }
  return p;
}

Dominance diagonal_dominance(const sparse::Csr<double>& a) {
  Dominance d;
  for (index_t i = 0; i < a.rows; ++i) {
    double off = 0;
    double diag = 0;
    for (index_t k = a.row_begin(i); k < a.row_end(i); ++k) {
      if (a.col[k] == i)
        diag = std::abs(a.val[k]);
      else
        off += std::abs(a.val[k]);
    }
    const double ratio = diag > 0 ? off / diag : (off > 0 ? INFINITY : 0.0);
    if (i == 0 || ratio > d.worst_ratio) {
      d.worst_ratio = ratio;
      d.worst_row = i;
    }
  }
  d.strict = d.worst_ratio < 1;
  d.weak = d.worst_ratio <= 1;
  return d;
}

std::optional<std::string> dominance_warning(const Dominance& d) {
  if (d.strict) return std::nullopt;
  return fmt::format(
      "A is {} diagonally dominant (row {}: sum of |a_ij| over j != i is {:.3g} x |a_ii|); "
      "Jacobi may converge slowly or not at all",
      d.weak ? "only weakly" : "not", d.worst_row, d.worst_ratio);
}

std::string_view to_string(Rhs rhs) { return rhs == Rhs::ones ? "ones" : "random"; }

std::optional<Rhs> parse_rhs(std::string_view text) {
  if (text == "ones") return Rhs::ones;
  if (text == "random") return Rhs::random;
  return std::nullopt;
}

std::vector<double> make_rhs(Rhs kind, index_t n, std::uint64_t seed) {
  std::vector<double> b(static_cast<std::size_t>(n), 1.0);
  if (kind == Rhs::random) {
    std::mt19937_64 engine(seed);  // its output is fixed by the standard; the mapping below too
    for (double& v : b) v = static_cast<double>(engine() >> 11) * 0x1.0p-52 - 1.0;
  }
  return b;
}

double bytes_per_iteration(const JacobiProblem& p) {
  const double n = static_cast<double>(p.n);
  const double nnz = static_cast<double>(p.nnz_off());
  return nnz * (sizeof(double) + sizeof(index_t)) + n * (sizeof(index_t) + 4 * sizeof(double));
}

// ---- the chunk graph ----

ChunkGraph chunk_graph(const JacobiProblem& p, const Partition& part) {
  const auto chunks = static_cast<std::int32_t>(part.chunks.size());
  ChunkGraph g;
  g.unit.resize(part.chunks.size());
  std::vector<std::int32_t> unit_first;  // first chunk of each unit; units are contiguous
  for (std::int32_t t = 0; t < chunks; ++t) {
    const Chunk& c = part.chunks[static_cast<std::size_t>(t)];
    if (!c.is_piece() || c.first_piece == t) unit_first.push_back(t);
    g.unit[static_cast<std::size_t>(t)] = static_cast<std::int32_t>(unit_first.size()) - 1;
  }
  g.units = static_cast<std::int32_t>(unit_first.size());
  unit_first.push_back(chunks);
  std::vector<std::int32_t> unit_of_row(static_cast<std::size_t>(p.n));
  for (std::int32_t t = 0; t < chunks; ++t) {
    const Chunk& c = part.chunks[static_cast<std::size_t>(t)];
    for (index_t r = c.row_begin; r < c.row_end; ++r)
      unit_of_row[static_cast<std::size_t>(r)] = g.unit[static_cast<std::size_t>(t)];
  }
  const auto units = static_cast<std::size_t>(g.units);

  // Directed "u reads v", deduplicated per u with a stamp.
  std::vector<std::int32_t> stamp(units, -1);
  std::vector<std::int64_t> reads_ptr(units + 1, 0);
  std::vector<std::int32_t> reads;
  for (std::size_t u = 0; u < units; ++u) {
    const Chunk& first = part.chunks[static_cast<std::size_t>(unit_first[u])];
    const Chunk& last = part.chunks[static_cast<std::size_t>(unit_first[u + 1] - 1)];
    for (std::int64_t q = first.nz_begin; q < last.nz_end; ++q) {
      const std::int32_t v = unit_of_row[static_cast<std::size_t>(p.col[static_cast<std::size_t>(q)])];
      if (v == static_cast<std::int32_t>(u) || stamp[static_cast<std::size_t>(v)] == static_cast<std::int32_t>(u))
        continue;
      stamp[static_cast<std::size_t>(v)] = static_cast<std::int32_t>(u);
      reads.push_back(v);
    }
    reads_ptr[u + 1] = static_cast<std::int64_t>(reads.size());
  }
  // The reverse relation by counting sort, then the union per unit.
  std::vector<std::int64_t> read_by_ptr(units + 1, 0);
  for (std::int32_t v : reads) ++read_by_ptr[static_cast<std::size_t>(v) + 1];
  for (std::size_t u = 0; u < units; ++u) read_by_ptr[u + 1] += read_by_ptr[u];
  std::vector<std::int32_t> read_by(reads.size());
  {
    std::vector<std::int64_t> next(read_by_ptr.begin(), read_by_ptr.end() - 1);
    for (std::size_t u = 0; u < units; ++u)
      for (std::int64_t i = reads_ptr[u]; i < reads_ptr[u + 1]; ++i)
        read_by[static_cast<std::size_t>(next[static_cast<std::size_t>(reads[static_cast<std::size_t>(i)])]++)] =
            static_cast<std::int32_t>(u);
  }
  std::fill(stamp.begin(), stamp.end(), -1);
  g.wait_count.assign(part.chunks.size(), 0);
  g.consumer_ptr.assign(units + 1, 0);
  std::vector<std::int32_t> adjacent;
  for (std::size_t u = 0; u < units; ++u) {
    adjacent.clear();
    auto add = [&](std::int32_t v) {
      if (stamp[static_cast<std::size_t>(v)] == static_cast<std::int32_t>(u)) return;
      stamp[static_cast<std::size_t>(v)] = static_cast<std::int32_t>(u);
      adjacent.push_back(v);
    };
    for (std::int64_t i = reads_ptr[u]; i < reads_ptr[u + 1]; ++i) add(reads[static_cast<std::size_t>(i)]);
    for (std::int64_t i = read_by_ptr[u]; i < read_by_ptr[u + 1]; ++i) add(read_by[static_cast<std::size_t>(i)]);
    const bool split =
        unit_first[u + 1] - unit_first[u] > 1 || part.chunks[static_cast<std::size_t>(unit_first[u])].is_piece();
    if (split) adjacent.push_back(static_cast<std::int32_t>(u));  // the pieces wait for their own row's combiner
    std::sort(adjacent.begin(), adjacent.end());
    for (std::int32_t t = unit_first[u]; t < unit_first[u + 1]; ++t)
      g.wait_count[static_cast<std::size_t>(t)] = static_cast<std::int32_t>(adjacent.size());
    for (std::int32_t v : adjacent)
      for (std::int32_t t = unit_first[static_cast<std::size_t>(v)]; t < unit_first[static_cast<std::size_t>(v) + 1];
           ++t)
        g.consumers.push_back(t);
    if (g.consumers.size() > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
      throw std::length_error("jacobi: the checkpoints variant's dependency lists exceed 32-bit offsets");
    g.consumer_ptr[u + 1] = static_cast<std::int32_t>(g.consumers.size());
  }
  return g;
}

// ---- the model ----

namespace {

constexpr int kWarp = 32;
using Lanes = std::array<double, kTaskThreads>;

// The device's butterfly (v += shfl_xor(v, off) for off = size/2 .. 1) over a[0..size):
// every lane ends with the same sum; this is lane 0's.
double butterfly(double* a, int size) {
  std::array<double, kWarp> next{};
  for (int off = size / 2; off > 0; off /= 2) {
    for (int l = 0; l < size; ++l) next[static_cast<std::size_t>(l)] = a[l] + a[l ^ off];
    for (int l = 0; l < size; ++l) a[l] = next[static_cast<std::size_t>(l)];
  }
  return a[0];
}

// The device's block_sum: a butterfly per warp, then warp 0 + warp 1 + ... in order.
double block_sum(Lanes v) {
  double total = 0;
  for (int w = 0; w < kTaskThreads / kWarp; ++w) {
    const double s = butterfly(v.data() + w * kWarp, kWarp);
    total = w == 0 ? s : total + s;
  }
  return total;
}

}  // namespace

void model_iteration(const JacobiProblem& p, const Partition& part, std::span<const double> b,
                     std::span<const double> x_old, std::span<double> x_new, std::span<double> partials) {
  std::vector<double> piece_sum(part.chunks.size(), 0.0);
  for (std::size_t ci = 0; ci < part.chunks.size(); ++ci) {
    const Chunk& c = part.chunks[ci];
    if (c.lanes == 0) {
      Lanes a{};
      for (int r = 0; r < kTaskThreads; ++r)
        for (std::int64_t q = std::int64_t{c.nz_begin} + r; q < c.nz_end; q += kTaskThreads)
          a[static_cast<std::size_t>(r)] = a[static_cast<std::size_t>(r)] + p.val[q] * x_old[p.col[q]];
      const double s = block_sum(a);
      const auto row = static_cast<std::size_t>(c.row_begin);
      if (!c.is_piece()) {
        const double x = (b[row] - s) * p.inv_diag[row];
        x_new[row] = x;
        partials[ci] = std::abs(x - x_old[row]);
        continue;
      }
      piece_sum[ci] = s;
      partials[ci] = 0;
      if (static_cast<std::int64_t>(ci) == std::int64_t{c.first_piece} + c.piece_count - 1) {
        const auto first = static_cast<std::size_t>(c.first_piece);
        double total = piece_sum[first];
        for (std::int32_t k = 1; k < c.piece_count; ++k) total = total + piece_sum[first + static_cast<std::size_t>(k)];
        const double x = (b[row] - total) * p.inv_diag[row];
        x_new[row] = x;
        partials[first] = std::abs(x - x_old[row]);
      }
      continue;
    }
    const int lanes = c.lanes;
    const int groups = kTaskThreads / lanes;
    Lanes delta{};
    for (index_t base = c.row_begin; base < c.row_end; base += groups) {
      for (int g = 0; g < groups; ++g) {
        const index_t row = base + g;
        if (row >= c.row_end) break;
        std::array<double, kWarp> a{};
        for (int l = 0; l < lanes; ++l)
          for (index_t q = p.row_ptr[row] + l; q < p.row_ptr[row + 1]; q += lanes)
            a[static_cast<std::size_t>(l)] = a[static_cast<std::size_t>(l)] + p.val[q] * x_old[p.col[q]];
        const double s = butterfly(a.data(), lanes);
        const auto r = static_cast<std::size_t>(row);
        const double x = (b[r] - s) * p.inv_diag[r];
        x_new[r] = x;
        auto& d = delta[static_cast<std::size_t>(g * lanes)];
        d = d + std::abs(x - x_old[r]);
      }
    }
    partials[ci] = block_sum(delta);
  }
}

double model_reduce(std::span<const double> partials) {
  Lanes acc{};
  for (std::size_t t = 0; t < partials.size(); ++t) {
    auto& a = acc[t % kTaskThreads];
    a = a + partials[t];
  }
  return block_sum(acc);
}

ModelRun model_solve(const JacobiProblem& p, const Partition& part, std::span<const double> b, double tolerance,
                     int max_iterations, bool keep_history) {
  ModelRun run;
  run.x.assign(static_cast<std::size_t>(p.n), 1.0);
  std::vector<double> next(static_cast<std::size_t>(p.n));
  std::vector<double> partials(part.chunks.size());
  while (run.iterations < max_iterations) {
    model_iteration(p, part, b, run.x, next, partials);
    const double change = model_reduce(partials);
    run.x.swap(next);
    ++run.iterations;
    run.last_change = change;
    run.changes.push_back(change);
    if (keep_history) run.history.push_back(run.x);
    if (change < tolerance) {
      run.converged = true;
      break;
    }
  }
  return run;
}

}  // namespace apiary::jacobi
