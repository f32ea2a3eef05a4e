#include "tasks/pcg/stage_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "sparse/analysis.hpp"
#include "sparse/lanes.hpp"

namespace apiary::pcg {

namespace {

constexpr int kTaskThreads = 256;  // the task program's tasks (pcg_tasks.cu)

// Greedy chunks over positions [begin, end) of a stage whose position p has
// row_ptr[p + 1] - row_ptr[p] entries.
void add_sparse_chunks(StagePlan& plan, std::int32_t stage, index_t begin, index_t end,
                       std::span<const index_t> row_ptr, const StageBudgets& b) {
  index_t open = begin;
  while (open < end) {
    index_t stop = open, longest = 0;
    std::int64_t entries = 0;
    while (stop < end) {
      const index_t len = row_ptr[stop + 1] - row_ptr[stop];
      const bool fits = stop - open < b.rows && entries + len <= b.nnz;
      if (!fits && stop > open) break;  // a row longer than the budget still gets a chunk
      entries += len;
      longest = std::max(longest, len);
      ++stop;
    }
    plan.chunks.push_back({.begin = open,
                           .end = stop,
                           .lanes = sparse::lanes_per_row(stop - open, longest, entries, kTaskThreads),
                           .stage = stage});
    open = stop;
  }
}

void add_vector_chunks(StagePlan& plan, std::int32_t stage, index_t n, const StageBudgets& b) {
  for (index_t open = 0; open < n; open += b.vector_rows)
    plan.chunks.push_back({.begin = open, .end = std::min<index_t>(n, open + b.vector_rows), .lanes = 1, .stage = stage});
}

// Appends a stage; `fill` adds its chunks.
template <class Fill>
std::int32_t add_stage(StagePlan& plan, StageKind kind, Fill&& fill) {
  const auto stage = static_cast<std::int32_t>(plan.stages.size());
  const auto first = static_cast<std::int32_t>(plan.chunks.size());
  fill(stage);
  const auto count = static_cast<std::int32_t>(plan.chunks.size()) - first;
  plan.stages.push_back({.kind = kind, .first_chunk = first, .chunk_count = count});
  plan.max_chunks = std::max(plan.max_chunks, count);
  return stage;
}

// The stage reduces the partials of the chunks [first, its own end).
void reduce_at(StagePlan& plan, std::int32_t stage, std::int32_t first) {
  Stage& s = plan.stages[static_cast<std::size_t>(stage)];
  s.reduce_first = first;
  s.reduce_count = s.first_chunk + s.chunk_count - first;
}

}  // namespace

std::string_view to_string(StageKind k) {
  switch (k) {
    case StageKind::forward: return "forward";
    case StageKind::backward: return "backward";
    case StageKind::scale: return "scale";
    case StageKind::copy: return "copy";
    case StageKind::direction: return "direction";
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
  if (b.nnz < 1 || b.rows < 1 || b.vector_rows < 1)
    throw std::invalid_argument(
        fmt::format("pcg: stage budgets must be positive (nnz {}, rows {}, vector rows {})", b.nnz, b.rows, b.vector_rows));
  if (a_row_ptr.size() < 2) throw std::invalid_argument("pcg: plan_stages needs a non-empty matrix");
  const auto n = static_cast<index_t>(a_row_ptr.size() - 1);
  StagePlan plan;
  std::int32_t last_pre = 0, reduce_from = 0;
  switch (m) {
    case HostPreconditioner::ic0: {
      if (lower == nullptr || upper == nullptr || static_cast<index_t>(lower->rows.size()) != n ||
          static_cast<index_t>(upper->rows.size()) != n)
        throw std::invalid_argument("pcg: plan_stages for ic0 needs the sweeps of L and L^T of the matrix's size");
      for (index_t l = 0; l < lower->levels(); ++l)
        last_pre = add_stage(plan, StageKind::forward, [&](std::int32_t s) {
          add_sparse_chunks(plan, s, lower->level_ptr[l], lower->level_ptr[l + 1], lower->row_ptr, b);
        });
      reduce_from = static_cast<std::int32_t>(plan.chunks.size());
      for (index_t l = 0; l < upper->levels(); ++l)
        last_pre = add_stage(plan, StageKind::backward, [&](std::int32_t s) {
          add_sparse_chunks(plan, s, upper->level_ptr[l], upper->level_ptr[l + 1], upper->row_ptr, b);
        });
      break;
    }
    case HostPreconditioner::jacobi:
    case HostPreconditioner::none:
      last_pre = add_stage(plan, m == HostPreconditioner::jacobi ? StageKind::scale : StageKind::copy,
                           [&](std::int32_t s) { add_vector_chunks(plan, s, n, b); });
      break;
  }
  reduce_at(plan, last_pre, reduce_from);
  plan.direction_stage =
      add_stage(plan, StageKind::direction, [&](std::int32_t s) { add_vector_chunks(plan, s, n, b); });
  const std::int32_t spmv =
      add_stage(plan, StageKind::spmv, [&](std::int32_t s) { add_sparse_chunks(plan, s, 0, n, a_row_ptr, b); });
  reduce_at(plan, spmv, plan.stages[static_cast<std::size_t>(spmv)].first_chunk);
  const std::int32_t update =
      add_stage(plan, StageKind::update, [&](std::int32_t s) { add_vector_chunks(plan, s, n, b); });
  reduce_at(plan, update, plan.stages[static_cast<std::size_t>(update)].first_chunk);
  return plan;
}

}  // namespace apiary::pcg
