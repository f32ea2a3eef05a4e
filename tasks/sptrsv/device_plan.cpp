#include "tasks/sptrsv/device_plan.hpp"

#include <algorithm>
#include <functional>
#include <queue>
#include <stdexcept>
#include <string>
#include <utility>

namespace apiary::sptrsv {

namespace {

struct ExternalEdge {
  index_t target;  // local index
  index_t source;  // row of x
  double value;
};

// The external edges of one sub-graph dealt to `threads` threads: all edges into one
// target go to the same thread (which then applies them one after the other, so external
// rows need no barrier between them), targets with the most edges first, each to the
// least loaded thread. The lists come back longest first, empty ones dropped: row r of
// the layout is then the r-th edge of threads 0, 1, ... as long as they have one.
std::vector<std::vector<ExternalEdge>> external_rows(std::vector<ExternalEdge> edges, int threads) {
  // Stable: a target's edges keep the schedule's (ascending column) order.
  std::stable_sort(edges.begin(), edges.end(),
                   [](const ExternalEdge& a, const ExternalEdge& b) { return a.target < b.target; });
  std::vector<std::pair<std::size_t, std::size_t>> runs;  // [begin, end) of one target
  for (std::size_t e = 0; e < edges.size();) {
    std::size_t f = e + 1;
    while (f < edges.size() && edges[f].target == edges[e].target) ++f;
    runs.emplace_back(e, f);
    e = f;
  }
  std::stable_sort(runs.begin(), runs.end(),
                   [](const auto& a, const auto& b) { return a.second - a.first > b.second - b.first; });
  std::vector<std::vector<ExternalEdge>> mine(static_cast<std::size_t>(threads));
  using Load = std::pair<std::size_t, int>;  // (edges, thread): least loaded, then lowest
  std::priority_queue<Load, std::vector<Load>, std::greater<>> least;
  for (int t = 0; t < threads; ++t) least.emplace(0, t);
  for (const auto& [begin, end] : runs) {
    auto [load, t] = least.top();
    least.pop();
    mine[static_cast<std::size_t>(t)].insert(mine[static_cast<std::size_t>(t)].end(), edges.begin() + begin,
                                              edges.begin() + end);
    least.emplace(load + (end - begin), t);
  }
  std::erase_if(mine, [](const auto& v) { return v.empty(); });
  std::stable_sort(mine.begin(), mine.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
  return mine;
}

}  // namespace

DevicePlan build_device_plan(const Csr<double>& lower, const Partition& p, const Schedule& s,
                             const SubgraphDag& dag, bool reversed) {
  const index_t n = lower.rows;
  if (s.subgraphs != p.parts || dag.subgraphs != p.parts || s.diagonal.size() != p.vertices.size())
    throw std::invalid_argument("sptrsv::build_device_plan: schedule or DAG does not belong to the partition");
  DevicePlan d;
  d.n = n;
  d.subgraphs = p.parts;
  d.n_max = p.n_max;
  d.reversed = reversed;
  d.part_ptr = p.part_ptr;
  d.diagonal = s.diagonal;
  auto user_row = [&](index_t i) { return reversed ? n - 1 - i : i; };

  // The slots of each sub-graph: its external edges laid out again in rows owned by
  // threads (external_rows), its internal slots as scheduled. Edge values are divided by
  // the target's diagonal: the task divides b on load, and no step of a slot divides.
  d.external_slots.resize(static_cast<std::size_t>(p.parts));
  d.edge_source.reserve(s.edges());
  d.edge_target.reserve(s.edges());
  d.edge_value.reserve(s.edges());
  for (index_t g = 0; g < p.parts; ++g) {
    const index_t base = p.part_ptr[g];
    d.largest = std::max(d.largest, p.part_ptr[g + 1] - base);
    auto add_edge = [&](index_t source, index_t target, double value) {
      d.edge_source.push_back(source);
      d.edge_target.push_back(target);
      d.edge_value.push_back(value / d.diagonal[base + target]);
    };
    const index_t first_internal = s.slot_ptr[g] + s.external_slots[g];
    std::vector<ExternalEdge> external;
    for (index_t e = s.edge_ptr[s.slot_ptr[g]]; e < s.edge_ptr[first_internal]; ++e)
      external.push_back({s.edge_target[e], user_row(p.vertices[s.edge_source[e]]), s.edge_value[e]});
    const auto by_thread = external_rows(std::move(external), kTasslThreads);
    const index_t rows = by_thread.empty() ? 0 : static_cast<index_t>(by_thread.front().size());
    d.external_slots[g] = rows;
    for (index_t r = 0; r < rows; ++r) {
      for (const auto& mine : by_thread) {
        if (static_cast<index_t>(mine.size()) <= r) break;  // loads descend
        add_edge(mine[r].source, mine[r].target, mine[r].value);
      }
      d.edge_ptr.push_back(static_cast<index_t>(d.edge_source.size()));
    }
    for (index_t t = first_internal; t < s.slot_ptr[g + 1]; ++t) {
      for (index_t e = s.edge_ptr[t]; e < s.edge_ptr[t + 1]; ++e)
        add_edge(s.edge_source[e], s.edge_target[e], s.edge_value[e]);
      d.edge_ptr.push_back(static_cast<index_t>(d.edge_source.size()));
    }
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
      if (width > kTasslThreads) return where + ": wider than a task";
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
