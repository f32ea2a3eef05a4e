#include "tasks/sptrsv/schedule.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <utility>

#include "tasks/sptrsv/ranges.hpp"

namespace apiary::sptrsv {

namespace {

using detail::for_each_range;
using detail::range_count;

// Places the incoming edges of row i, a vertex of the sub-graph whose permuted indices
// start at `base` (sources of a feasible partition are in it or an earlier one; `pos`
// gives every vertex's permuted index): on_external(j, e) for its j-th external edge (the
// entry e of `lower`), which takes external slot j (external sources are final before
// the task starts, so only the conflict rule applies); on_internal(t, e) for an internal
// edge, which takes internal slot t, given the division slots of the sub-graph's earlier
// vertices in `finished` (by local index). Returns {external edges, division slot of i
// (-1: ready)}.
template <class OnExternal, class OnInternal>
std::pair<index_t, index_t> place_row(const Csr<double>& lower, const index_t* pos, index_t base, index_t i,
                                      const index_t* finished, std::vector<std::uint64_t>& incoming,
                                      OnExternal&& on_external, OnInternal&& on_internal) {
  index_t next_ext = 0;
  // (earliest internal slot, entry) packed into one key, earliest above: sorted as pairs,
  // their comparisons were an eighth of the analysis's samples (perf, blocks8x6000@1%,
  // 2-core machine).
  incoming.clear();
  for (index_t e = lower.row_begin(i); e < lower.row_end(i) - 1; ++e) {
    const index_t k = pos[lower.col[e]];
    if (k < base)
      on_external(next_ext++, e);
    else
      incoming.push_back(std::uint64_t(static_cast<std::uint32_t>(finished[k - base] + 1)) << 32 |
                         static_cast<std::uint32_t>(e));
  }
  // Serving sources in order of readiness and taking the first free slot each time gives
  // the earliest possible division of i under the conflict rule.
  std::sort(incoming.begin(), incoming.end());
  index_t last = -1;
  for (const std::uint64_t key : incoming) {
    last = std::max(static_cast<index_t>(key >> 32), last + 1);
    on_internal(last, static_cast<index_t>(key & 0xffffffffu));
  }
  return {next_ext, last};
}

// The sub-graph that holds permuted index k.
index_t subgraph_of(const Partition& p, index_t k) {
  return static_cast<index_t>(std::upper_bound(p.part_ptr.begin(), p.part_ptr.end(), k) - p.part_ptr.begin()) - 1;
}

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

// The edges, diagonal, ready vertices and divisions of a schedule whose slots, division
// slots and positions are made (schedule_of_feasible's slots). With its division slot and
// its sources' known, a vertex's edges are placed without the other vertices, so this runs
// in ranges of rows of about equal edge counts, which split the sub-graphs larger than a
// quarter of a range (few large sub-graphs used to leave most threads idle). A range
// writes a slot's edges from where the ranges before it stop, so a slot's targets stay
// ascending: at the slot's start for a sub-graph inside the range, after the edges the
// ranges before it counted for a split one.
void detail::place_edges(const Csr<double>& lower, const Partition& p, Schedule& s, unsigned threads,
                         std::size_t min_range) {
  const index_t n = lower.rows;
  if (n == 0) return;
  const index_t* pos = s.position.data();
  const auto all_edges = static_cast<std::size_t>(s.edge_ptr.back());
  s.diagonal.resize(static_cast<std::size_t>(n));
  s.edge_source.resize(all_edges);
  s.edge_target.resize(all_edges);
  s.edge_value.resize(all_edges);
  auto edges_before = [&](index_t g) { return static_cast<std::size_t>(s.edge_ptr[s.slot_ptr[g]]); };
  // Range r starts where the edges before it reach r / ranges of them all, a split
  // sub-graph's edges taken as spread evenly over its rows; at the sub-graph's start if
  // it is not split.
  const std::size_t ranges = range_count(all_edges, min_range, static_cast<std::size_t>(n), std::max(threads, 1u));
  std::vector<std::size_t> begin{0};
  bool split = false;
  for (std::size_t r = 1; r < ranges; ++r) {
    const std::size_t target = all_edges * r / ranges;
    index_t g = 0;  // the last sub-graph whose edges start at or before target
    for (index_t lo = 0, hi = p.parts; lo < hi;) {
      const index_t mid = lo + (hi - lo) / 2;
      if (edges_before(mid) <= target)
        g = mid, lo = mid + 1;
      else
        hi = mid;
    }
    const std::size_t in_g = edges_before(g + 1) - edges_before(g);  // > target - edges_before(g)
    auto k = static_cast<std::size_t>(p.part_ptr[g]);
    if (in_g * 4 * ranges > all_edges) {
      k += (target - edges_before(g)) * static_cast<std::size_t>(p.part_ptr[g + 1] - p.part_ptr[g]) / in_g;
      split = split || k != static_cast<std::size_t>(p.part_ptr[g]);
    }
    if (k > begin.back()) begin.push_back(k);
  }
  begin.push_back(static_cast<std::size_t>(n));

  struct Range {
    index_t first_slot = 0;   // of its first sub-graph
    std::vector<index_t> at;  // per slot from first_slot: edges counted, then where the next is written
    std::vector<index_t> ready, ready_end, division, division_ptr;  // of the sub-graphs that start in it
  };
  std::vector<Range> in(begin.size() - 1);
  for (std::size_t r = 0; r < in.size(); ++r) {
    in[r].first_slot = s.slot_ptr[subgraph_of(p, static_cast<index_t>(begin[r]))];
    const index_t end_slot = s.slot_ptr[subgraph_of(p, static_cast<index_t>(begin[r + 1]) - 1) + 1];
    in[r].at.assign(static_cast<std::size_t>(end_slot - in[r].first_slot), 0);
  }
  // Places the edges of permuted index k of sub-graph g: use(t, e) for entry e of `lower`
  // in slot first_slot + t.
  auto place = [&](const Range& range, index_t g, index_t k, std::vector<std::uint64_t>& incoming, auto&& use) {
    const index_t external = s.slot_ptr[g] - range.first_slot, internal = external + s.external_slots[g];
    const index_t base = p.part_ptr[g];
    place_row(
        lower, pos, base, p.vertices[k], s.division_slot.data() + base, incoming,
        [&](index_t j, index_t e) { use(external + j, e); }, [&](index_t t, index_t e) { use(internal + t, e); });
  };
  if (split)  // count the edges of the split sub-graphs (a range's first and last can be)
    for_each_range(begin, [&](std::size_t r, std::size_t k0, std::size_t k1) {
      Range& range = in[r];
      std::vector<std::uint64_t> incoming;
      auto count = [&](index_t g, std::size_t from, std::size_t to) {
        if (from <= static_cast<std::size_t>(p.part_ptr[g]) && to >= static_cast<std::size_t>(p.part_ptr[g + 1]))
          return;  // inside the range
        for (auto k = static_cast<index_t>(from); k < static_cast<index_t>(to); ++k)
          place(range, g, k, incoming, [&](index_t t, index_t) { ++range.at[t]; });
      };
      const index_t first = subgraph_of(p, static_cast<index_t>(k0)), last = subgraph_of(p, static_cast<index_t>(k1) - 1);
      count(first, k0, std::min(k1, static_cast<std::size_t>(p.part_ptr[first + 1])));
      if (last != first) count(last, static_cast<std::size_t>(p.part_ptr[last]), k1);
    });
  std::vector<index_t> next(s.edge_ptr.begin(), s.edge_ptr.end() - 1);  // per slot: where the next range writes
  for (Range& range : in)
    for (std::size_t t = 0; t < range.at.size(); ++t) {
      index_t& written = next[static_cast<std::size_t>(range.first_slot) + t];
      const index_t edges = range.at[t];
      range.at[t] = written;
      written += edges;
    }
  // The edges, the diagonal (checked: the first zero in partition order is reported, as by
  // one thread, for_each_range rethrowing the first range's exception first), and the
  // ready vertices and divisions of the sub-graphs that start in the range.
  for_each_range(begin, [&](std::size_t r, std::size_t k0, std::size_t k1) {
    Range& range = in[r];
    std::vector<std::uint64_t> incoming;
    index_t g = subgraph_of(p, static_cast<index_t>(k0));
    for (auto k = static_cast<index_t>(k0); k < static_cast<index_t>(k1); ++k) {
      while (k >= p.part_ptr[g + 1]) ++g;
      const index_t base = p.part_ptr[g], i = p.vertices[k];
      s.diagonal[k] = lower.val[lower.row_end(i) - 1];
      if (s.diagonal[k] == 0.0)
        throw std::invalid_argument("sptrsv::build_schedule: zero diagonal at row " + std::to_string(i) +
                                    " (0-based)");
      place(range, g, k, incoming, [&](index_t t, index_t e) {
        const auto at = static_cast<std::size_t>(range.at[t]++);
        const index_t source = pos[lower.col[e]];
        s.edge_source[at] = source < base ? source : source - base;
        s.edge_target[at] = k - base;
        s.edge_value[at] = lower.val[e];
      });
    }
    // Ready vertices, then the divisions of each internal slot (ascending local index): a
    // counting sort by slot.
    std::vector<index_t> count;
    for (g = subgraph_of(p, static_cast<index_t>(k0)); g < p.parts && p.part_ptr[g] < static_cast<index_t>(k1); ++g) {
      const index_t base = p.part_ptr[g], m = p.part_ptr[g + 1] - base;
      if (base < static_cast<index_t>(k0)) continue;  // started in an earlier range
      const index_t n_int = s.internal_slots[g];
      const index_t* finished = s.division_slot.data() + base;
      count.assign(static_cast<std::size_t>(n_int) + 1, 0);
      for (index_t l = 0; l < m; ++l) {
        if (finished[l] < 0)
          range.ready.push_back(l);
        else
          ++count[finished[l] + 1];
      }
      range.ready_end.push_back(static_cast<index_t>(range.ready.size()));
      for (index_t t = 0; t < n_int; ++t) count[t + 1] += count[t];
      const auto division_base = static_cast<index_t>(range.division.size());
      for (index_t t = 0; t < s.external_slots[g]; ++t) range.division_ptr.push_back(division_base);
      for (index_t t = 0; t < n_int; ++t) range.division_ptr.push_back(division_base + count[t + 1]);
      range.division.resize(static_cast<std::size_t>(division_base + count[n_int]));
      for (index_t l = 0; l < m; ++l)
        if (finished[l] >= 0) range.division[static_cast<std::size_t>(division_base + count[finished[l]]++)] = l;
    }
  });
  s.ready.reserve(static_cast<std::size_t>(n));
  s.division.reserve(static_cast<std::size_t>(n));
  for (const Range& range : in) {
    const auto ready_base = static_cast<index_t>(s.ready.size());
    for (index_t end : range.ready_end) s.ready_ptr.push_back(ready_base + end);
    s.ready.insert(s.ready.end(), range.ready.begin(), range.ready.end());
    const auto division_base = static_cast<index_t>(s.division.size());
    for (index_t d : range.division_ptr) s.division_ptr.push_back(division_base + d);
    s.division.insert(s.division.end(), range.division.begin(), range.division.end());
  }
}

Schedule detail::schedule_of_feasible(const Csr<double>& lower, const Partition& p, unsigned threads,
                                      std::size_t min_range, ScheduleContent content,
                                      const std::function<bool()>& stop) {
  const index_t n = lower.rows;
  Schedule s;
  s.subgraphs = p.parts;
  // The slots: each sub-graph's vertices placed in order (a vertex's division slot is
  // known once its sources' are), counting edges per slot. Ranges of sub-graphs of about
  // equal vertex counts run on several threads.
  s.division_slot.resize(static_cast<std::size_t>(n));  // each sub-graph's written by its range below
  const auto subgraphs = static_cast<std::size_t>(p.parts);
  const std::vector<std::size_t> vertex_ranges =
      balanced_ranges(subgraphs, range_count(static_cast<std::size_t>(n), min_range, subgraphs, std::max(threads, 1u)),
                      [&](std::size_t g) { return p.part_ptr[g]; });
  s.position.resize(static_cast<std::size_t>(n));  // every vertex's written by the pass below
  index_t* pos = s.position.data();
  for_each_range(vertex_ranges, [&](std::size_t, std::size_t g0, std::size_t g1) {
    for (auto k = p.part_ptr[g0]; k < p.part_ptr[g1]; ++k) pos[p.vertices[k]] = k;
  });

  // Sub-graphs are scheduled independently: ranges of them on several threads, each
  // counting its edges per slot (ends relative to the range's first edge) into a Part,
  // joined in order afterwards.
  struct Part {
    std::vector<index_t> external_slots, internal_slots, edge_ptr;
  };
  auto count_range = [&](index_t g0, index_t g1, Part& out) {
    std::vector<index_t> external_count, internal_count;
    std::vector<std::uint64_t> incoming;
    index_t end = 0;
    auto bump = [](std::vector<index_t>& count, index_t t) {
      if (static_cast<std::size_t>(t) >= count.size()) count.resize(static_cast<std::size_t>(t) + 1, 0);
      ++count[t];
    };
    for (index_t g = g0; g < g1; ++g) {
      if (stop && stop()) return;
      external_count.clear();
      internal_count.clear();
      const index_t base = p.part_ptr[g], m = p.part_ptr[g + 1] - base;
      index_t* finished = s.division_slot.data() + base;  // a vertex's is read by later ones only
      index_t n_ext = 0, n_int = 0;
      for (index_t l = 0; l < m; ++l) {
        if (l % kStopEvery == kStopEvery - 1 && stop && stop()) return;
        const auto [external, last] = place_row(
            lower, pos, base, p.vertices[base + l], finished, incoming,
            [&](index_t j, index_t) { bump(external_count, j); }, [&](index_t t, index_t) { bump(internal_count, t); });
        finished[l] = last;
        n_ext = std::max(n_ext, external);
        n_int = std::max(n_int, last + 1);
      }
      for (index_t c : external_count) out.edge_ptr.push_back(end += c);
      for (index_t c : internal_count) out.edge_ptr.push_back(end += c);
      out.external_slots.push_back(n_ext);
      out.internal_slots.push_back(n_int);
    }
  };
  std::vector<Part> parts(vertex_ranges.size() - 1);
  for_each_range(vertex_ranges, [&](std::size_t r, std::size_t g0, std::size_t g1) {
    count_range(static_cast<index_t>(g0), static_cast<index_t>(g1), parts[r]);
  });
  if (stop && stop()) return s;  // incomplete: stopped (stop never turns false again)
  for (const Part& part : parts) {
    for (std::size_t k = 0; k < part.external_slots.size(); ++k) {
      s.external_slots.push_back(part.external_slots[k]);
      s.internal_slots.push_back(part.internal_slots[k]);
      s.slot_ptr.push_back(s.slot_ptr.back() + part.external_slots[k] + part.internal_slots[k]);
    }
    const index_t edge_base = s.edge_ptr.back();
    for (index_t end : part.edge_ptr) s.edge_ptr.push_back(edge_base + end);
  }
  if (content == ScheduleContent::all) place_edges(lower, p, s, threads, min_range);
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

PathTerms path_terms(const SubgraphDag& dag, const Schedule& s, ModelConstants c) {
  if (dag.subgraphs != s.subgraphs)
    throw std::invalid_argument("sptrsv: DAG and schedule disagree on the sub-graphs");
  PathTerms path;
  for (index_t level = 0; level < dag.levels; ++level) {
    double slowest = -1;
    PathTerms of_level;
    for (index_t k = dag.level_ptr[level]; k < dag.level_ptr[level + 1]; ++k) {
      const index_t g = dag.order[k];
      const std::int64_t e = slot_rounds(s, g, true, c.threads), i = slot_rounds(s, g, false, c.threads);
      const double t = c.tau_external * static_cast<double>(e) + c.tau_internal * static_cast<double>(i);
      if (t > slowest) {
        slowest = t;
        of_level = {e, i};
      }
    }
    path.external += of_level.external;
    path.internal += of_level.internal;
  }
  return path;
}

double predicted_time(const SubgraphDag& dag, const Schedule& s, ModelConstants c) {
  return model_seconds(dag.levels, path_terms(dag, s, c), c);
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
