#include "tasks/pcg/stage_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <limits>
#include <stdexcept>

#include "sparse/analysis.hpp"

namespace apiary::pcg {

namespace {

// A budget, or the automatic one for `total` entries or rows (StageBudgets).
std::int64_t budget(int fixed, std::int64_t total, int tasks) {
  if (fixed > 0) return fixed;
  return std::max<std::int64_t>(kMinAutoChunk, (total + tasks - 1) / tasks);
}

// Chunks over positions [begin, end) of a stage whose position p has
// row_ptr[p + 1] - row_ptr[p] entries. A fixed budget packs rows greedily up to it. An
// automatic one cuts where the running count of entries crosses a multiple of the
// budget, so the stage has at most ceil(entries / budget) chunks, that is at most
// `tasks`: greedy packing leaves each chunk a little short of the budget, and the
// remainder became one chunk more than the resident blocks, a second wave that cost a
// whole chunk's time per stage.
void add_sparse_chunks(StagePlan& plan, std::int32_t stage, index_t begin, index_t end,
                       std::span<const index_t> row_ptr, const StageBudgets& b) {
  const std::int64_t nnz = budget(b.nnz, row_ptr[end] - row_ptr[begin], b.tasks);
  const std::int64_t rows = b.rows > 0 ? b.rows : std::numeric_limits<std::int64_t>::max();
  const bool automatic = b.nnz == 0;
  index_t open = begin;
  while (open < end) {
    // Automatic: close at the next multiple of the budget past the chunk's first entry.
    const std::int64_t done = row_ptr[open] - row_ptr[begin];
    const std::int64_t limit = automatic ? (done / nnz + 1) * nnz - done : nnz;
    index_t stop = open, longest = 0;
    std::int64_t entries = 0;
    while (stop < end) {
      const index_t len = row_ptr[stop + 1] - row_ptr[stop];
      // Automatic: full once the limit is reached; fixed: full if the row would pass it.
      const bool full = automatic ? entries >= limit : entries + len > limit;
      if (stop > open && (stop - open >= rows || full)) break;  // a row longer than the budget still gets a chunk
      entries += len;
      longest = std::max(longest, len);
      ++stop;
    }
    plan.chunks.push_back({.begin = open, .end = stop, .lanes = sweep_lanes(stop - open, longest, entries), .stage = stage});
    open = stop;
  }
}

void add_vector_chunks(StagePlan& plan, std::int32_t stage, index_t n, const StageBudgets& b) {
  const auto rows = static_cast<index_t>(std::min<std::int64_t>(n, budget(b.vector_rows, n, b.tasks)));
  for (index_t open = 0; open < n; open += std::min(rows, n - open))
    plan.chunks.push_back({.begin = open, .end = open + std::min(rows, n - open), .lanes = 1, .stage = stage});
}

// Appends a stage; `fill` adds its chunks.
template <class Fill>
void add_stage(StagePlan& plan, StageKind kind, Fill&& fill) {
  const auto stage = static_cast<std::int32_t>(plan.stages.size());
  const auto first = static_cast<std::int32_t>(plan.chunks.size());
  fill(stage);
  const auto count = static_cast<std::int32_t>(plan.chunks.size()) - first;
  plan.stages.push_back({.kind = kind, .first_chunk = first, .chunk_count = count});
  plan.max_chunks = std::max(plan.max_chunks, count);
}

}  // namespace

std::int32_t sweep_lanes(index_t rows, index_t longest, std::int64_t entries) {
  rows = std::max<index_t>(rows, 1);
  const auto fit = std::bit_floor(static_cast<unsigned>(std::max<index_t>(1, kStageThreads / rows)));
  const std::int64_t mean = (entries + rows - 1) / rows;
  const auto rounds = std::bit_ceil(static_cast<unsigned>(std::max<std::int64_t>(1, (mean + kSweepRounds - 1) / kSweepRounds)));
  const auto need = std::bit_ceil(static_cast<unsigned>(std::max<index_t>(1, longest)));
  return static_cast<std::int32_t>(std::min({32u, std::max(fit, rounds), need}));
}

std::string_view to_string(StageKind k) {
  switch (k) {
    case StageKind::forward: return "forward";
    case StageKind::backward: return "backward";
    case StageKind::spmv: return "spmv";
    case StageKind::update: return "update";
  }
  return "?";
}

SweepTriangle sweep_triangle(const Csr<double>& t, bool upper) {
  sparse::require_square(t, "pcg: sweep_triangle");
  const index_t n = t.rows;
  const sparse::LevelSets levels = sparse::level_sets(t, upper ? sparse::Triangle::upper : sparse::Triangle::lower);
  SweepTriangle s;
  s.rows = levels.order;
  s.level_ptr = levels.level_ptr;
  s.diag.assign(static_cast<std::size_t>(n), 0.0);
  s.row_ptr.reserve(static_cast<std::size_t>(n) + 1);
  for (index_t pos = 0; pos < n; ++pos) {
    const index_t i = s.rows[pos];
    bool has_diag = false;
    for (index_t k = t.row_begin(i); k < t.row_end(i); ++k) {
      const index_t j = t.col[k];
      if (j == i) {
        has_diag = t.val[k] != 0;
        s.diag[pos] = t.val[k];
      } else if (upper ? j < i : j > i) {
        throw std::invalid_argument(fmt::format("pcg: the {} factor has an entry ({}, {}) in the other triangle",
                                                upper ? "upper" : "lower", i, j));
      } else {
        s.col.push_back(j);
        s.val.push_back(t.val[k]);
      }
    }
    if (!has_diag) throw std::invalid_argument(fmt::format("pcg: the factor's diagonal in row {} is missing or zero", i));
    s.row_ptr.push_back(static_cast<index_t>(s.col.size()));
  }
  return s;
}

StagePlan plan_stages(std::span<const index_t> a_row_ptr, HostPreconditioner m, const SweepTriangle* lower,
                      const SweepTriangle* upper, const StageBudgets& b) {
  if (b.nnz < 0 || b.rows < 0 || b.vector_rows < 0)
    throw std::invalid_argument(fmt::format("pcg: stage budgets must be positive, or 0 for automatic (nnz {}, rows {}, "
                                            "vector rows {})",
                                            b.nnz, b.rows, b.vector_rows));
  if ((b.nnz == 0 || b.vector_rows == 0) && b.tasks < 1)
    throw std::invalid_argument(fmt::format("pcg: automatic stage budgets need a positive task target, got {}", b.tasks));
  if (a_row_ptr.size() < 2) throw std::invalid_argument("pcg: plan_stages needs a non-empty matrix");
  const auto n = static_cast<index_t>(a_row_ptr.size() - 1);
  StagePlan plan;
  if (m == HostPreconditioner::ic0) {
    if (lower == nullptr || upper == nullptr || static_cast<index_t>(lower->rows.size()) != n ||
        static_cast<index_t>(upper->rows.size()) != n)
      throw std::invalid_argument("pcg: plan_stages for ic0 needs the sweeps of L and L^T of the matrix's size");
    // Level 0 of each sweep needs nothing of the others: L's goes to the update, L^T's
    // to whoever forms the row's y.
    plan.row_flags.assign(static_cast<std::size_t>(n), 0);
    for (index_t pos = 0; pos < lower->level_ptr[1]; ++pos) plan.row_flags[lower->rows[pos]] |= kFirstLevel;
    for (index_t pos = 0; pos < upper->level_ptr[1]; ++pos) plan.row_flags[upper->rows[pos]] |= kUpperFree;
    for (index_t l = 1; l < lower->levels(); ++l)
      add_stage(plan, StageKind::forward, [&](std::int32_t s) {
        add_sparse_chunks(plan, s, lower->level_ptr[l], lower->level_ptr[l + 1], lower->row_ptr, b);
      });
    for (index_t l = 1; l < upper->levels(); ++l)
      add_stage(plan, StageKind::backward, [&](std::int32_t s) {
        add_sparse_chunks(plan, s, upper->level_ptr[l], upper->level_ptr[l + 1], upper->row_ptr, b);
      });
  }
  add_stage(plan, StageKind::spmv, [&](std::int32_t s) { add_sparse_chunks(plan, s, 0, n, a_row_ptr, b); });
  add_stage(plan, StageKind::update, [&](std::int32_t s) { add_vector_chunks(plan, s, n, b); });
  // The preconditioner ends with its last stage, or with the update where it has none.
  const std::size_t spmv = plan.stages.size() - 2;
  plan.stages[spmv == 0 ? spmv + 1 : spmv - 1].ends_preconditioner = 1;
  return plan;
}

}  // namespace apiary::pcg
