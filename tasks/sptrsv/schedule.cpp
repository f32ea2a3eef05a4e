#include "tasks/sptrsv/schedule.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <utility>

#include "tasks/sptrsv/ranges.hpp"

namespace apiary::sptrsv {

namespace {

struct Placed {
  index_t slot;  // local to the sub-graph: externals first, then internals
  index_t source;
  index_t target;
  double value;
};

void require_feasible(const Csr<double>& lower, const Partition& p, const char* what) {
  std::string why;
  if (!is_feasible(lower, p, &why))
    throw std::invalid_argument(std::string(what) + ": partition not feasible: " + why);
}

std::string at_slot(index_t g, index_t slot) {
  return "sub-graph " + std::to_string(g) + ", slot " + std::to_string(slot) + ": ";
}

}  // namespace

Schedule build_schedule(const Csr<double>& lower, const Partition& p) {
  require_lower_with_diagonal(lower, "sptrsv::build_schedule");
  require_feasible(lower, p, "sptrsv::build_schedule");
  return detail::schedule_of_feasible(lower, p);
}

Schedule detail::schedule_of_feasible(const Csr<double>& lower, const Partition& p, unsigned threads,
                                      std::size_t min_range, ScheduleContent content) {
  const index_t n = lower.rows;
  const bool all = content == ScheduleContent::all;
  Schedule s;
  s.subgraphs = p.parts;
  sparse::UninitVector<index_t> pos(static_cast<std::size_t>(n));  // every vertex's written by the pass below
  if (all) s.diagonal.resize(static_cast<std::size_t>(n));
  // Every off-diagonal entry becomes one edge, and a sub-graph's edges are those of its
  // rows: where each sub-graph's edges start is known before it is scheduled. This pass
  // visits the rows in partition order (a cache miss each) and runs in ranges of
  // sub-graphs of about equal vertex counts too; a zero diagonal is reported for the
  // first such row in partition order, as by one thread (for_each_range rethrows the
  // first range's exception first). The slots alone need only the positions: their
  // counts are made absolute when the ranges are joined, and no row is read here.
  const auto subgraphs = static_cast<std::size_t>(p.parts);
  std::vector<std::size_t> first_edge(subgraphs + 1, 0);  // until the sum below: edges of g at g + 1
  const std::vector<std::size_t> vertex_ranges =
      balanced_ranges(subgraphs, range_count(static_cast<std::size_t>(n), min_range, subgraphs, std::max(threads, 1u)),
                      [&](std::size_t g) { return p.part_ptr[g]; });
  for_each_range(vertex_ranges, [&](std::size_t, std::size_t g0, std::size_t g1) {
    for (std::size_t g = g0; g < g1; ++g) {
      std::size_t edges = 0;
      for (index_t k = p.part_ptr[g]; k < p.part_ptr[g + 1]; ++k) {
        const index_t v = p.vertices[k];
        pos[v] = k;
        if (!all) continue;
        s.diagonal[k] = lower.val[lower.row_end(v) - 1];
        if (s.diagonal[k] == 0.0)
          throw std::invalid_argument("sptrsv::build_schedule: zero diagonal at row " + std::to_string(v) +
                                      " (0-based)");
        edges += static_cast<std::size_t>(lower.row_length(v) - 1);
      }
      first_edge[g + 1] = edges;
    }
  });
  for (std::size_t g = 0; g < subgraphs; ++g) first_edge[g + 1] += first_edge[g];
  const std::size_t all_edges = first_edge.back();
  if (all) {
    s.edge_source.resize(all_edges);
    s.edge_target.resize(all_edges);
    s.edge_value.resize(all_edges);
  }

  // Sub-graphs are scheduled independently: ranges of them on several threads, each
  // writing its edges straight into the flat arrays at their known offsets (bucketed by
  // slot) and its other arrays into a Part, joined in order afterwards.
  struct Part {
    std::vector<index_t> external_slots, internal_slots;
    std::vector<index_t> edge_ptr;  // ends of the slots' edges: absolute, or from the range's first (slots alone)
    std::vector<index_t> ready, ready_end;  // ready_end: per sub-graph, into ready
    std::vector<index_t> division, division_ptr;  // division_ptr: per slot, into division
  };
  // Places the incoming edges of sub-graph g's vertices into slots: on_external(slot,
  // source, target, value) for an external edge, on_internal(t, source, target, value)
  // for an internal edge in internal slot t (sources as the Schedule stores them). Leaves
  // each local vertex's division slot in `finished` and returns {n'_slots, n_slots}.
  auto place = [&](index_t g, std::vector<index_t>& finished, std::vector<std::uint64_t>& incoming,
                   auto&& on_external, auto&& on_internal) {
    const index_t base = p.part_ptr[g];
    const index_t m = p.part_ptr[g + 1] - base;
    finished.assign(static_cast<std::size_t>(m), -1);  // per local vertex: internal slot of its division, -1 = ready
    index_t n_ext = 0, n_int = 0;
    for (index_t l = 0; l < m; ++l) {
      const index_t i = p.vertices[base + l];
      index_t next_ext = 0;
      // (earliest internal slot, entry) packed into one key, earliest above: sorted as
      // pairs, their comparisons were an eighth of the analysis's samples (perf,
      // blocks8x6000@1%, 2-core machine).
      incoming.clear();
      for (index_t e = lower.row_begin(i); e < lower.row_end(i) - 1; ++e) {
        // Sub-graph g owns the permuted indices [base, base + m), and sources of a
        // feasible partition are in g or an earlier sub-graph.
        const index_t k = pos[lower.col[e]];
        if (k < base)
          // External sources are final before the task starts, so only the conflict rule
          // applies and a vertex's k-th external edge can always take slot k.
          on_external(next_ext++, k, l, lower.val[e]);
        else
          incoming.push_back(std::uint64_t(static_cast<std::uint32_t>(finished[k - base] + 1)) << 32 |
                             static_cast<std::uint32_t>(e));
      }
      n_ext = std::max(n_ext, next_ext);
      // Serving sources in order of readiness and taking the first free slot each time
      // gives the earliest possible division of i under the conflict rule.
      std::sort(incoming.begin(), incoming.end());
      index_t last = -1;
      for (const std::uint64_t key : incoming) {
        const auto earliest = static_cast<index_t>(key >> 32), e = static_cast<index_t>(key & 0xffffffffu);
        last = std::max(earliest, last + 1);
        on_internal(last, pos[lower.col[e]] - base, l, lower.val[e]);
      }
      finished[l] = last;
      n_int = std::max(n_int, last + 1);
    }
    return std::pair{n_ext, n_int};
  };

  // Slots only: edges counted per slot, nothing placed or divided; slot ends relative to
  // the range's first edge.
  auto count_range = [&](index_t g0, index_t g1, Part& out) {
    std::vector<index_t> finished, external_count, internal_count;
    std::vector<std::uint64_t> incoming;
    index_t end = 0;
    auto bump = [](std::vector<index_t>& count, index_t t) {
      if (static_cast<std::size_t>(t) >= count.size()) count.resize(static_cast<std::size_t>(t) + 1, 0);
      ++count[t];
    };
    for (index_t g = g0; g < g1; ++g) {
      external_count.clear();
      internal_count.clear();
      const auto [n_ext, n_int] = place(
          g, finished, incoming, [&](index_t t, index_t, index_t, double) { bump(external_count, t); },
          [&](index_t t, index_t, index_t, double) { bump(internal_count, t); });
      for (index_t c : external_count) out.edge_ptr.push_back(end += c);
      for (index_t c : internal_count) out.edge_ptr.push_back(end += c);
      out.external_slots.push_back(n_ext);
      out.internal_slots.push_back(n_int);
    }
  };

  auto schedule_range = [&](index_t g0, index_t g1, Part& out) {
    // Sized once for the range's largest sub-graph: grown by appends, a sub-graph of tens
    // of thousands of edges reallocated it a dozen times, each time on fresh pages.
    std::size_t most = 0;
    for (index_t g = g0; g < g1; ++g) most = std::max(most, first_edge[g + 1] - first_edge[g]);
    std::vector<Placed> placed;
    placed.reserve(most);
    std::vector<index_t> finished;
    std::vector<std::uint64_t> incoming;
    std::vector<index_t> count;
    for (index_t g = g0; g < g1; ++g) {
      const index_t m = p.part_ptr[g + 1] - p.part_ptr[g];
      placed.clear();
      // Internal slots are stored as -1 - t until n_ext is known.
      const auto [n_ext, n_int] = place(
          g, finished, incoming,
          [&](index_t t, index_t source, index_t target, double value) {
            placed.push_back({t, source, target, value});
          },
          [&](index_t t, index_t source, index_t target, double value) {
            placed.push_back({-1 - t, source, target, value});
          });
      for (Placed& e : placed)
        if (e.slot < 0) e.slot = n_ext + (-1 - e.slot);

      const index_t slots = n_ext + n_int;
      count.assign(static_cast<std::size_t>(slots) + 1, 0);
      for (const Placed& e : placed) ++count[e.slot + 1];
      for (index_t t = 0; t < slots; ++t) count[t + 1] += count[t];
      const std::size_t written = first_edge[g];
      const auto edge_base = static_cast<index_t>(written);
      for (index_t t = 0; t < slots; ++t) out.edge_ptr.push_back(edge_base + count[t + 1]);
      // Stable, and placed is in target order, so each slot lists targets ascending.
      for (const Placed& e : placed) {
        const std::size_t at = written + static_cast<std::size_t>(count[e.slot]++);
        s.edge_source[at] = e.source;
        s.edge_target[at] = e.target;
        s.edge_value[at] = e.value;
      }

      // Ready vertices, then the divisions of each internal slot (ascending local index):
      // a counting sort by slot.
      count.assign(static_cast<std::size_t>(n_int) + 1, 0);
      for (index_t l = 0; l < m; ++l) {
        if (finished[l] < 0)
          out.ready.push_back(l);
        else
          ++count[finished[l] + 1];
      }
      out.ready_end.push_back(static_cast<index_t>(out.ready.size()));
      for (index_t t = 0; t < n_int; ++t) count[t + 1] += count[t];
      const auto division_base = static_cast<index_t>(out.division.size());
      for (index_t t = 0; t < n_ext; ++t) out.division_ptr.push_back(division_base);
      for (index_t t = 0; t < n_int; ++t) out.division_ptr.push_back(division_base + count[t + 1]);
      out.division.resize(static_cast<std::size_t>(division_base + count[n_int]));
      for (index_t l = 0; l < m; ++l)
        if (finished[l] >= 0) out.division[static_cast<std::size_t>(division_base + count[finished[l]]++)] = l;
      out.external_slots.push_back(n_ext);
      out.internal_slots.push_back(n_int);
    }
  };

  // Ranges of about equal edge counts, at least min_range edges each (the slots alone: the
  // vertex ranges, edge counts being unknown).
  const std::vector<std::size_t> range_begin =
      all ? balanced_ranges(subgraphs, range_count(all_edges, min_range, subgraphs, std::max(threads, 1u)),
                            [&](std::size_t g) { return first_edge[g]; })
          : vertex_ranges;
  std::vector<Part> parts(range_begin.size() - 1);
  for_each_range(range_begin, [&](std::size_t r, std::size_t g0, std::size_t g1) {
    if (!all)
      count_range(static_cast<index_t>(g0), static_cast<index_t>(g1), parts[r]);
    else
      schedule_range(static_cast<index_t>(g0), static_cast<index_t>(g1), parts[r]);
  });
  if (all) {
    s.division.reserve(static_cast<std::size_t>(n));
    s.ready.reserve(static_cast<std::size_t>(n));
  }
  for (const Part& part : parts) {
    for (std::size_t k = 0; k < part.external_slots.size(); ++k) {
      s.external_slots.push_back(part.external_slots[k]);
      s.internal_slots.push_back(part.internal_slots[k]);
      s.slot_ptr.push_back(s.slot_ptr.back() + part.external_slots[k] + part.internal_slots[k]);
    }
    const index_t edge_base = all ? 0 : s.edge_ptr.back();  // a whole schedule's ends are absolute
    for (index_t end : part.edge_ptr) s.edge_ptr.push_back(edge_base + end);
    const auto ready_base = static_cast<index_t>(s.ready.size());
    for (index_t end : part.ready_end) s.ready_ptr.push_back(ready_base + end);
    s.ready.insert(s.ready.end(), part.ready.begin(), part.ready.end());
    const auto division_base = static_cast<index_t>(s.division.size());
    for (index_t d : part.division_ptr) s.division_ptr.push_back(division_base + d);
    s.division.insert(s.division.end(), part.division.begin(), part.division.end());
  }
  return s;
}

std::string check_schedule(const Csr<double>& lower, const Partition& p, const Schedule& s) {
  std::string why;
  if (!is_feasible(lower, p, &why)) return "partition not feasible: " + why;
  const index_t n = lower.rows;
  const auto parts = static_cast<std::size_t>(p.parts);
  if (s.subgraphs != p.parts || s.external_slots.size() != parts ||
      s.internal_slots.size() != parts || s.slot_ptr.size() != parts + 1 ||
      s.ready_ptr.size() != parts + 1 || s.slot_ptr[0] != 0 || s.ready_ptr[0] != 0)
    return "per-sub-graph arrays do not match the partition's " + std::to_string(p.parts) +
           " sub-graphs";
  const auto slots = static_cast<std::size_t>(s.total_slots());
  if (s.edge_ptr.size() != slots + 1 || s.division_ptr.size() != slots + 1 || s.edge_ptr[0] != 0 ||
      s.division_ptr[0] != 0 || static_cast<std::size_t>(s.edge_ptr.back()) != s.edges() ||
      s.edge_target.size() != s.edges() || s.edge_value.size() != s.edges() ||
      static_cast<std::size_t>(s.division_ptr.back()) != s.division.size() ||
      static_cast<std::size_t>(s.ready_ptr.back()) != s.ready.size() ||
      s.diagonal.size() != static_cast<std::size_t>(n))
    return "flat arrays have inconsistent lengths";

  // Per entry of L: how often the schedule holds it.
  std::vector<index_t> uses(lower.nnz(), 0);
  auto entry_of = [&](index_t row, index_t col) -> index_t {
    const auto b = lower.col.begin() + lower.row_begin(row);
    const auto e = lower.col.begin() + lower.row_end(row);
    const auto it = std::lower_bound(b, e, col);
    return it != e && *it == col ? static_cast<index_t>(it - lower.col.begin()) : -1;
  };

  constexpr index_t not_divided = std::numeric_limits<index_t>::min();
  std::vector<index_t> divided_at;  // per local vertex: internal slot, -1 = ready
  std::vector<index_t>
      last_edge;               // per local vertex: latest slot (sub-graph-local) of an edge into it
  std::vector<index_t> stamp;  // per local vertex: last slot that wrote it, for rule (a)
  for (index_t g = 0; g < p.parts; ++g) {
    const index_t base = p.part_ptr[g];
    const index_t m = p.part_ptr[g + 1] - base;
    const index_t n_ext = s.external_slots[g], n_int = s.internal_slots[g];
    const index_t first = s.slot_ptr[g];
    if (n_ext < 0 || n_int < 0 || s.slot_ptr[g + 1] - first != n_ext + n_int)
      return "sub-graph " + std::to_string(g) + ": slot_ptr disagrees with the slot counts";
    divided_at.assign(static_cast<std::size_t>(m), not_divided);
    last_edge.assign(static_cast<std::size_t>(m), -1);
    stamp.assign(static_cast<std::size_t>(m), -1);
    for (index_t k = s.ready_ptr[g]; k < s.ready_ptr[g + 1]; ++k) {
      const index_t l = s.ready[k];
      if (l < 0 || l >= m) return "sub-graph " + std::to_string(g) + ": ready vertex out of range";
      if (divided_at[l] != not_divided)
        return "sub-graph " + std::to_string(g) + ": local vertex " + std::to_string(l) +
               " divided twice";
      divided_at[l] = -1;
    }
    for (index_t t = 0; t < n_ext + n_int; ++t) {
      const index_t slot = first + t;
      if (t < n_ext && s.division_ptr[slot + 1] != s.division_ptr[slot])
        return at_slot(g, t) + "external slot divides vertices";
      for (index_t k = s.division_ptr[slot]; k < s.division_ptr[slot + 1]; ++k) {
        const index_t l = s.division[k];
        if (l < 0 || l >= m) return at_slot(g, t) + "divided vertex out of range";
        if (divided_at[l] != not_divided)
          return at_slot(g, t) + "local vertex " + std::to_string(l) + " divided twice";
        divided_at[l] = t - n_ext;
      }
    }
    for (index_t l = 0; l < m; ++l)
      if (divided_at[l] == not_divided)
        return "sub-graph " + std::to_string(g) + ": local vertex " + std::to_string(l) +
               " never divided";

    for (index_t t = 0; t < n_ext + n_int; ++t) {
      const index_t slot = first + t;
      const bool external = t < n_ext;
      for (index_t e = s.edge_ptr[slot]; e < s.edge_ptr[slot + 1]; ++e) {
        const index_t target = s.edge_target[e], source = s.edge_source[e];
        if (target < 0 || target >= m) return at_slot(g, t) + "edge target out of range";
        if (stamp[target] == t)
          return at_slot(g, t) + "two edges into local vertex " + std::to_string(target) +
                 " (rule a)";
        stamp[target] = t;
        last_edge[target] = t;
        index_t col;
        if (external) {
          if (source < 0 || source >= base)
            return at_slot(g, t) + "external edge source is not in an earlier sub-graph";
          col = p.vertices[source];
        } else {
          if (source < 0 || source >= m) return at_slot(g, t) + "internal edge source out of range";
          if (divided_at[source] >= t - n_ext)
            return at_slot(g, t) + "internal edge reads local vertex " + std::to_string(source) +
                   " before its division (rule b)";
          col = p.vertices[base + source];
        }
        const index_t row = p.vertices[base + target];
        const index_t entry = col < row ? entry_of(row, col) : -1;
        if (entry < 0)
          return at_slot(g, t) + "edge " + std::to_string(col) + " -> " + std::to_string(row) +
                 " is not an off-diagonal entry of L";
        if (lower.val[entry] != s.edge_value[e])
          return at_slot(g, t) + "edge " + std::to_string(col) + " -> " + std::to_string(row) +
                 " carries a value other than L's";
        ++uses[entry];
      }
    }
    for (index_t l = 0; l < m; ++l) {
      const index_t last_internal = last_edge[l] - n_ext;  // < 0 when no internal edge
      if (divided_at[l] == -1 ? last_internal >= 0 : divided_at[l] != last_internal)
        return "sub-graph " + std::to_string(g) + ": local vertex " + std::to_string(l) +
               " is not divided right after its last incoming edge (rule c)";
      const index_t v = p.vertices[base + l];
      if (s.diagonal[base + l] != lower.val[lower.row_end(v) - 1])
        return "diagonal of vertex " + std::to_string(v) + " differs from L";
    }
  }
  for (index_t i = 0; i < n; ++i)
    for (index_t k = lower.row_begin(i); k < lower.row_end(i); ++k)
      if (lower.col[k] < i && uses[k] != 1)
        return "entry (" + std::to_string(i) + ", " + std::to_string(lower.col[k]) +
               ") scheduled " + std::to_string(uses[k]) + " times";
  return "";
}

std::int64_t slot_rounds(const Schedule& s, index_t g, bool external, int threads) {
  const index_t first = s.slot_ptr[g] + (external ? 0 : s.external_slots[g]);
  const index_t count = external ? s.external_slots[g] : s.internal_slots[g];
  if (threads <= 0) return count;
  std::int64_t rounds = 0;
  for (index_t t = first; t < first + count; ++t)
    rounds += std::max<std::int64_t>(1, (s.edge_ptr[t + 1] - s.edge_ptr[t] + threads - 1) / threads);
  return rounds;
}

double predicted_time(const SubgraphDag& dag, const Schedule& s, ModelConstants c) {
  if (dag.subgraphs != s.subgraphs)
    throw std::invalid_argument(
        "sptrsv::predicted_time: DAG and schedule disagree on the sub-graphs");
  double t = dag.levels * c.alpha;
  for (index_t level = 0; level < dag.levels; ++level) {
    double slowest = 0;
    for (index_t k = dag.level_ptr[level]; k < dag.level_ptr[level + 1]; ++k) {
      const index_t g = dag.order[k];
      slowest = std::max(slowest, c.tau_external * slot_rounds(s, g, true, c.threads) +
                                      c.tau_internal * slot_rounds(s, g, false, c.threads));
    }
    t += slowest;
  }
  return t;
}

index_t choose_n_max(const Csr<double>& lower, std::span<const index_t> candidates,
                     ModelConstants c) {
  if (candidates.empty()) throw std::invalid_argument("sptrsv::choose_n_max: no candidate n_max");
  index_t best = 0;
  double best_time = 0;
  for (index_t n_max : candidates) {
    const Partition p = partition(lower, n_max);
    const double t = predicted_time(subgraph_dag(lower, p), build_schedule(lower, p), c);
    if (best == 0 || t < best_time) {
      best = n_max;
      best_time = t;
    }
  }
  return best;
}

}  // namespace apiary::sptrsv
