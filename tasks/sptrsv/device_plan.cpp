#include "tasks/sptrsv/device_plan.hpp"

#include <algorithm>
#include <queue>
#include <stdexcept>
#include <string>
#include <utility>

#include "tasks/sptrsv/ranges.hpp"

namespace apiary::sptrsv {

namespace {

struct ExternalEdge {
  index_t target;  // local index
  index_t source;  // row of x
  double value;
};

// The external edges of one sub-graph dealt to `threads` threads: all edges into one
// target go to the same thread (which then applies them one after the other, so external
// rows need no barrier between them), targets with the most edges first (ties: lower
// target first), each to the least loaded thread (ties: lower thread). The threads' lists
// are ranked longest first (ties: lower thread), empty ones dropped: row r of the layout
// is then the r-th edge of lists 0, 1, ... as long as they have one, and a target's j-th
// edge is at position start(t) + j of list list(t), so each edge is written once, to its
// place. Flat arrays reused from one sub-graph to the next, and counting sorts (targets
// and run lengths are small): with a vector per thread and comparison sorts, laying out
// the plan ran more instructions than partitioning (callgrind, poisson3d:40 at n_max 256:
// 104 M against 39 M; 51 M then).
class ExternalRows {
 public:
  // length[t]: the external edges into local target t.
  void deal(const std::vector<index_t>& length, int threads) {
    const auto m = static_cast<index_t>(length.size());
    // Targets with edges, longest first, ties by target: a counting sort by length.
    index_t longest = 0;
    for (index_t t = 0; t < m; ++t) longest = std::max(longest, length[t]);
    by_length_.assign(static_cast<std::size_t>(longest) + 2, 0);
    for (index_t t = 0; t < m; ++t)
      if (length[t] > 0) ++by_length_[longest - length[t] + 1];
    for (index_t k = 0; k <= longest; ++k) by_length_[k + 1] += by_length_[k];
    targets_.resize(static_cast<std::size_t>(by_length_.back()));
    for (index_t t = 0; t < m; ++t)
      if (length[t] > 0) targets_[by_length_[longest - length[t]]++] = t;
    // Each target to the least loaded thread, after the targets dealt to it before.
    using Load = std::pair<std::size_t, int>;  // (edges, thread): least loaded, then lowest
    std::priority_queue<Load, std::vector<Load>, std::greater<>> least;
    for (int t = 0; t < threads; ++t) least.emplace(0, t);
    load_.assign(static_cast<std::size_t>(threads), 0);
    owner_.resize(static_cast<std::size_t>(m));
    start_.resize(static_cast<std::size_t>(m));
    for (const index_t t : targets_) {
      auto [load, thread] = least.top();
      least.pop();
      owner_[t] = thread;
      start_[t] = static_cast<index_t>(load);
      load_[static_cast<std::size_t>(thread)] += length[t];
      least.emplace(load + static_cast<std::size_t>(length[t]), thread);
    }
    // The threads with edges, longest list first, ties by thread.
    lists_.clear();
    for (int t = 0; t < threads; ++t)
      if (load_[static_cast<std::size_t>(t)] > 0) lists_.push_back(t);
    std::stable_sort(lists_.begin(), lists_.end(), [&](int a, int b) { return load_[a] > load_[b]; });
    rank_.resize(static_cast<std::size_t>(threads));
    for (std::size_t i = 0; i < lists_.size(); ++i) rank_[static_cast<std::size_t>(lists_[i])] = static_cast<int>(i);
  }

  std::size_t lists() const { return lists_.size(); }
  index_t length(std::size_t i) const { return load_[static_cast<std::size_t>(lists_[i])]; }
  int list(index_t t) const { return rank_[static_cast<std::size_t>(owner_[t])]; }  // targets with edges only
  index_t start(index_t t) const { return start_[t]; }

 private:
  std::vector<index_t> by_length_, targets_, start_, load_;
  std::vector<int> owner_, lists_, rank_;
};

}  // namespace

DevicePlan build_device_plan(const Csr<double>& lower, const Partition& p, const Schedule& s,
                             const SubgraphDag& dag, bool reversed, int threads) {
  return build_device_plan(lower, p, Schedule(s), dag, reversed, threads);
}

DevicePlan build_device_plan(const Csr<double>& lower, const Partition& p, Schedule&& s, const SubgraphDag& dag,
                             bool reversed, int threads) {
  const index_t n = lower.rows;
  if (s.subgraphs != p.parts || dag.subgraphs != p.parts || s.diagonal.size() != p.vertices.size())
    throw std::invalid_argument("sptrsv::build_device_plan: schedule or DAG does not belong to the partition");
  if (!is_task_width(threads))
    throw std::invalid_argument("sptrsv::build_device_plan: a task is " + std::to_string(kTasslThreads) + " or " +
                                std::to_string(kWideTasslThreads) + " threads wide, not " + std::to_string(threads));
  DevicePlan d;
  d.n = n;
  d.threads = threads;
  d.subgraphs = p.parts;
  d.n_max = p.n_max;
  d.reversed = reversed;
  d.part_ptr = p.part_ptr;
  const std::size_t edges = s.edges();
  d.diagonal = std::move(s.diagonal);
  auto user_row = [&](index_t i) { return reversed ? n - 1 - i : i; };

  // The slots of each sub-graph: its external edges laid out again in rows owned by
  // threads (external_rows), its internal slots as scheduled. Edge values are divided by
  // the target's diagonal: the task divides b on load, and no step of a slot divides.
  //
  // A sub-graph keeps its schedule's edges, so its edges start where they start in the
  // schedule, and sub-graphs are laid out independently: ranges of them in parallel (the
  // plan is built after the n_max candidates, on its own), then the slot offsets in
  // order. A range records the ends of each sub-graph's external rows (rows_of_part).
  // The edges are rewritten in the schedule's arrays: a sub-graph's external edges are
  // copied out before its rows are written back over them, and its internal edges stay
  // where they are (allocated again and copied, the three arrays of a 1.4-million-edge
  // plan took 12 ms to zero on the 2-core machine, one thread).
  d.external_slots.resize(static_cast<std::size_t>(p.parts));
  d.edge_source = std::move(s.edge_source);
  d.edge_target = std::move(s.edge_target);
  d.edge_value = std::move(s.edge_value);
  auto lay_out = [&](index_t g0, index_t g1, std::vector<std::vector<index_t>>& rows_of_part) {
    std::vector<ExternalEdge> external;
    ExternalRows rows_of;
    std::vector<index_t> length;
    for (index_t g = g0; g < g1; ++g) {
      const index_t base = p.part_ptr[g];
      const index_t first_slot = s.slot_ptr[g], first_internal = first_slot + s.external_slots[g];
      const index_t e0 = s.edge_ptr[first_slot];
      external.clear();
      length.assign(static_cast<std::size_t>(p.part_ptr[g + 1] - base), 0);
      for (index_t e = e0; e < s.edge_ptr[first_internal]; ++e) {
        ++length[d.edge_target[e]];
        external.push_back({d.edge_target[e], user_row(p.vertices[d.edge_source[e]]), d.edge_value[e]});
      }
      rows_of.deal(length, threads);
      // Row r holds the r-th edge of every list longer than r (lengths descend).
      std::vector<index_t>& ends = rows_of_part[static_cast<std::size_t>(g - g0)];
      const index_t rows = rows_of.lists() == 0 ? 0 : rows_of.length(0);
      std::size_t wide = rows_of.lists();
      index_t at = e0;
      for (index_t r = 0; r < rows; ++r) {
        while (rows_of.length(wide - 1) <= r) --wide;
        ends.push_back(at += static_cast<index_t>(wide));
      }
      // A target's j-th edge is in the schedule's external slot j.
      for (index_t j = 0, e = e0; j < s.external_slots[g]; ++j)
        for (; e < s.edge_ptr[first_slot + j + 1]; ++e) {
          const ExternalEdge& x = external[static_cast<std::size_t>(e - e0)];
          const index_t row = rows_of.start(x.target) + j;
          const auto to = static_cast<std::size_t>((row == 0 ? e0 : ends[static_cast<std::size_t>(row) - 1]) +
                                                   rows_of.list(x.target));
          d.edge_source[to] = x.source;
          d.edge_target[to] = x.target;
          d.edge_value[to] = x.value / d.diagonal[base + x.target];
        }
      // The internal edges follow the rows, where the schedule put them (at is their first).
      for (index_t e = at; e < s.edge_ptr[s.slot_ptr[g + 1]]; ++e) d.edge_value[e] /= d.diagonal[base + d.edge_target[e]];
    }
  };
  // Ranges of about equal edge counts, one per hardware thread and at least 2^13 edges
  // each (the plan of nh2010, 117 k edges, took 6 ms on one thread of an H200 host;
  // smaller plans stay on the calling thread).
  const std::vector<std::size_t> range_begin =
      detail::balanced_ranges(static_cast<std::size_t>(p.parts),
                              detail::range_count(edges, std::size_t{1} << 13, static_cast<std::size_t>(p.parts)),
                              [&](std::size_t g) { return s.edge_ptr[s.slot_ptr[g]]; });
  std::vector<std::vector<std::vector<index_t>>> rows_of_range(range_begin.size() - 1);
  for (std::size_t k = 0; k + 1 < range_begin.size(); ++k) rows_of_range[k].resize(range_begin[k + 1] - range_begin[k]);
  detail::for_each_range(range_begin, [&](std::size_t k, std::size_t g0, std::size_t g1) {
    lay_out(static_cast<index_t>(g0), static_cast<index_t>(g1), rows_of_range[k]);
  });
  for (std::size_t k = 0; k + 1 < range_begin.size(); ++k)
    for (auto g = static_cast<index_t>(range_begin[k]); g < static_cast<index_t>(range_begin[k + 1]); ++g) {
      const std::vector<index_t>& ends = rows_of_range[k][static_cast<std::size_t>(g) - range_begin[k]];
      d.largest = std::max(d.largest, p.part_ptr[g + 1] - p.part_ptr[g]);
      d.external_slots[g] = static_cast<index_t>(ends.size());
      d.edge_ptr.insert(d.edge_ptr.end(), ends.begin(), ends.end());
      const index_t first_internal = s.slot_ptr[g] + s.external_slots[g];
      for (index_t t = first_internal; t < s.slot_ptr[g + 1]; ++t) d.edge_ptr.push_back(s.edge_ptr[t + 1]);
      d.slot_ptr.push_back(static_cast<index_t>(d.edge_ptr.size()) - 1);
    }
  d.load_index.resize(static_cast<std::size_t>(n));
  for (index_t k = 0; k < n; ++k) d.load_index[k] = user_row(p.vertices[k]);

  // Successors from the predecessor lists.
  d.pred_count.resize(static_cast<std::size_t>(p.parts));
  d.succ_ptr.assign(static_cast<std::size_t>(p.parts) + 1, 0);
  for (index_t g = 0; g < p.parts; ++g) {
    d.pred_count[g] = dag.pred_ptr[g + 1] - dag.pred_ptr[g];
    for (index_t k = dag.pred_ptr[g]; k < dag.pred_ptr[g + 1]; ++k) ++d.succ_ptr[dag.pred[k] + 1];
  }
  for (index_t g = 0; g < p.parts; ++g) d.succ_ptr[g + 1] += d.succ_ptr[g];
  d.succ.resize(static_cast<std::size_t>(d.succ_ptr.back()));
  std::vector<index_t> fill(d.succ_ptr.begin(), d.succ_ptr.end() - 1);
  for (index_t g = 0; g < p.parts; ++g)
    for (index_t k = dag.pred_ptr[g]; k < dag.pred_ptr[g + 1]; ++k) d.succ[fill[dag.pred[k]]++] = g;
  d.level = dag.level;
  d.level_ptr = dag.level_ptr;
  d.order = dag.order;
  return d;
}

void refresh_values(DevicePlan& d, const Csr<double>& lower) {
  const index_t n = d.n;
  auto fail = [](index_t row, const std::string& what) {
    throw std::invalid_argument("sptrsv::refresh_values: row " + std::to_string(row) + " (0-based): " + what);
  };
  if (lower.rows != n || lower.cols != n)
    throw std::invalid_argument("sptrsv::refresh_values: the plan has " + std::to_string(n) + " rows, the matrix " +
                                std::to_string(lower.rows) + " x " + std::to_string(lower.cols));
  // Every plan edge is one off-diagonal entry of the pattern it was made of; with as many
  // off-diagonal entries here and each edge found, the patterns are the same.
  const auto edges = static_cast<std::size_t>(d.edge_ptr.back());
  if (lower.nnz() != edges + static_cast<std::size_t>(n))
    throw std::invalid_argument("sptrsv::refresh_values: the matrix has " + std::to_string(lower.nnz()) +
                                " entries, the plan's pattern " + std::to_string(edges + static_cast<std::size_t>(n)) +
                                " (its edges and the diagonal)");
  auto row_of = [&](index_t k) { return d.reversed ? n - 1 - d.load_index[k] : d.load_index[k]; };
  sparse::UninitVector<double> diagonal(static_cast<std::size_t>(n));
  sparse::UninitVector<double> value(edges);
  auto diagonals = [&](index_t g) {
    for (index_t k = d.part_ptr[g]; k < d.part_ptr[g + 1]; ++k) {
      const index_t i = row_of(k), last = lower.row_end(i) - 1;
      if (last < lower.row_begin(i) || lower.col[last] != i) fail(i, "no diagonal stored last in the row");
      if (lower.val[last] == 0.0) fail(i, "zero diagonal");
      diagonal[k] = lower.val[last];
    }
  };
  // Edges e0 .. e1 of sub-graph g, slot t holding e0, once g's diagonals are made.
  auto values = [&](index_t g, index_t t, index_t e0, index_t e1) {
    const index_t base = d.part_ptr[g], first_internal = d.slot_ptr[g] + d.external_slots[g];
    for (; t < d.slot_ptr[g + 1] && d.edge_ptr[t] < e1; ++t) {
      const bool external = t < first_internal;
      for (index_t e = std::max(e0, d.edge_ptr[t]); e < std::min(e1, d.edge_ptr[t + 1]); ++e) {
        const index_t i = row_of(base + d.edge_target[e]);
        const index_t j = external ? (d.reversed ? n - 1 - d.edge_source[e] : d.edge_source[e])  // a row of x
                                   : row_of(base + d.edge_source[e]);                            // a local index
        const auto from = lower.col.begin() + lower.row_begin(i), to = lower.col.begin() + lower.row_end(i) - 1;
        const auto at = std::lower_bound(from, to, j);
        if (at == to || *at != j) fail(i, "no entry in column " + std::to_string(j) + ", which the plan's pattern has");
        value[e] = lower.val[static_cast<std::size_t>(at - lower.col.begin())] / diagonal[base + d.edge_target[e]];
      }
    }
  };
  // Ranges of sub-graphs of about equal rows and edges, each sub-graph's diagonals and
  // edges together (its rows stay in cache); a sub-graph with more edges than a range's
  // share has its edges split in ranges of their own afterwards, once every diagonal is
  // made (one of 24576 rows, or a plan of one sub-graph, would leave the other threads
  // idle).
  auto edges_of = [&](index_t g) { return d.edge_ptr[d.slot_ptr[g + 1]] - d.edge_ptr[d.slot_ptr[g]]; };
  const std::size_t work = edges + static_cast<std::size_t>(n);
  const std::size_t share = work / detail::range_count(work, std::size_t{1} << 13, work) + 1;
  auto large = [&](index_t g) { return static_cast<std::size_t>(edges_of(g)) > share; };
  std::vector<std::size_t> work_before{0};  // per sub-graph: its rows, and its edges unless large
  for (index_t g = 0; g < d.subgraphs; ++g)
    work_before.push_back(work_before.back() + static_cast<std::size_t>(d.part_ptr[g + 1] - d.part_ptr[g]) +
                          (large(g) ? 0 : static_cast<std::size_t>(edges_of(g))));
  const std::vector<std::size_t> range_begin = detail::balanced_ranges(
      static_cast<std::size_t>(d.subgraphs),
      detail::range_count(work_before.back(), std::size_t{1} << 13, static_cast<std::size_t>(d.subgraphs)),
      [&](std::size_t g) { return work_before[g]; });
  detail::for_each_range(range_begin, [&](std::size_t, std::size_t g0, std::size_t g1) {
    for (auto g = static_cast<index_t>(g0); g < static_cast<index_t>(g1); ++g) {
      diagonals(g);
      if (!large(g)) values(g, d.slot_ptr[g], d.edge_ptr[d.slot_ptr[g]], d.edge_ptr[d.slot_ptr[g + 1]]);
    }
  });
  for (index_t g = 0; g < d.subgraphs; ++g) {
    if (!large(g)) continue;
    const auto first = static_cast<std::size_t>(d.edge_ptr[d.slot_ptr[g]]), count = static_cast<std::size_t>(edges_of(g));
    const std::size_t pieces = (count + share - 1) / share;
    std::vector<std::size_t> begin;
    for (std::size_t r = 0; r <= pieces; ++r) begin.push_back(first + count * r / pieces);
    detail::for_each_range(begin, [&](std::size_t, std::size_t e0, std::size_t e1) {
      // The slot of e0: the last whose first edge is at or before it.
      const auto t = static_cast<index_t>(std::upper_bound(d.edge_ptr.begin() + d.slot_ptr[g],
                                                           d.edge_ptr.begin() + d.slot_ptr[g + 1],
                                                           static_cast<index_t>(e0)) - d.edge_ptr.begin()) - 1;
      values(g, t, static_cast<index_t>(e0), static_cast<index_t>(e1));
    });
  }
  d.diagonal = std::move(diagonal);
  d.edge_value = std::move(value);
}

std::vector<SubgraphTask> subgraph_tasks(const DevicePlan& d) {
  std::vector<SubgraphTask> tasks(static_cast<std::size_t>(d.subgraphs));
  for (index_t g = 0; g < d.subgraphs; ++g) {
    const index_t first = d.slot_ptr[g], end = d.slot_ptr[g + 1];
    tasks[g] = SubgraphTask{g, d.part_ptr[g], d.part_ptr[g + 1] - d.part_ptr[g], first, first + d.external_slots[g],
                            end, d.edge_ptr[first], d.edge_ptr[end], d.succ_ptr[g], d.succ_ptr[g + 1]};
  }
  return tasks;
}

std::string check_device_plan(const DevicePlan& d) {
  std::vector<index_t> owner;
  for (index_t g = 0; g < d.subgraphs; ++g) {
    owner.assign(static_cast<std::size_t>(d.part_ptr[g + 1] - d.part_ptr[g]), -1);
    const index_t first_internal = d.slot_ptr[g] + d.external_slots[g];
    for (index_t t = d.slot_ptr[g]; t < first_internal; ++t) {
      const index_t width = d.edge_ptr[t + 1] - d.edge_ptr[t];
      const std::string where = "sub-graph " + std::to_string(g) + ", external row " + std::to_string(t);
      if (width > d.threads) return where + ": wider than a task";
      if (t > d.slot_ptr[g] && width > d.edge_ptr[t] - d.edge_ptr[t - 1]) return where + ": longer than the one before";
      for (index_t e = d.edge_ptr[t]; e < d.edge_ptr[t + 1]; ++e) {
        index_t& o = owner[d.edge_target[e]];
        if (o >= 0 && o != e - d.edge_ptr[t])
          return where + ": target " + std::to_string(d.edge_target[e]) + " at two positions";
        o = e - d.edge_ptr[t];
      }
    }
  }
  return "";
}

std::vector<double> solve_with_plan(const DevicePlan& d, std::span<const double> b) {
  if (b.size() != static_cast<std::size_t>(d.n))
    throw std::invalid_argument("sptrsv::solve_with_plan: b has " + std::to_string(b.size()) +
                                " entries, the plan " + std::to_string(d.n) + " rows");
  std::vector<double> x(b.size());
  std::vector<double> local;
  std::vector<double> update;
  for (index_t g = 0; g < d.subgraphs; ++g) {
    const index_t base = d.part_ptr[g];
    const index_t m = d.part_ptr[g + 1] - base;
    local.resize(static_cast<std::size_t>(m));
    for (index_t l = 0; l < m; ++l) local[l] = b[d.load_index[base + l]] / d.diagonal[base + l];
    for (index_t t = d.slot_ptr[g]; t < d.slot_ptr[g + 1]; ++t) {
      const bool external = t < d.slot_ptr[g] + d.external_slots[g];
      const index_t e0 = d.edge_ptr[t], e1 = d.edge_ptr[t + 1];
      update.resize(static_cast<std::size_t>(e1 - e0));
      for (index_t e = e0; e < e1; ++e)  // every read of the slot first
        update[e - e0] = d.edge_value[e] * (external ? x[d.edge_source[e]] : local[d.edge_source[e]]);
      for (index_t e = e0; e < e1; ++e) local[d.edge_target[e]] -= update[e - e0];
    }
    for (index_t l = 0; l < m; ++l) x[d.load_index[base + l]] = local[l];
  }
  return x;
}

}  // namespace apiary::sptrsv
