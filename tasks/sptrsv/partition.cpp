#include "tasks/sptrsv/partition.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <mutex>
#include <numeric>
#include <optional>
#include <span>
#include <stdexcept>
#include <unordered_map>
#include <utility>

#include "sparse/analysis.hpp"
#include "tasks/sptrsv/ranges.hpp"

namespace apiary::sptrsv {

namespace {

enum class Criterion { out_degree_descending, out_degree_ascending, index_ascending };

// Sorts by the criterion, ties by ascending index. The out-degree orders compare packed
// 64-bit keys (the degree, inverted for descending, above the index): with a comparator
// that looked both degrees up, the sorts took the largest share of the analysis, and
// the keys take 13% off all of it (callgrind, nh2010, all n_max candidates).
void sort_by(std::span<index_t> v, Criterion c, const PartitionInput& in, std::vector<std::uint64_t>& keys) {
  if (c == Criterion::index_ascending) {
    std::sort(v.begin(), v.end());
    return;
  }
  keys.resize(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    const auto degree = static_cast<std::uint32_t>(in.out_degree[v[i]]);
    const std::uint32_t major = c == Criterion::out_degree_descending ? ~degree : degree;
    keys[i] = std::uint64_t{major} << 32 | static_cast<std::uint32_t>(v[i]);
  }
  std::sort(keys.begin(), keys.end());
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<index_t>(keys[i] & 0xffffffffu);
}

// The splitting heuristic (the paper's Alg. 3 with Alg. 2) on one component. Its
// scratch is indexed by position in the component's visiting order, so a run costs
// O(component vertices + edges), not O(n).
//
// The heuristic visits the component frontier by frontier: the roots, then the vertices
// whose parents are all in earlier frontiers (Kahn's layering), each frontier sorted by
// the criterion. Which vertex lands in which frontier depends on the DAG only, not on
// where earlier vertices were placed nor on n_max; so the visiting order of every
// attempt with one criterion, in every n_max candidate, is the same: PartitionInput
// makes it once and shares it (visit_order, with each vertex's parents as positions in
// it: visit_parents), and an attempt only places vertices. Runs that also counted down
// parents and sorted each frontier made analyze take 104-109 instead of 66-75 ms on
// nh2010 (2-core machine, session 26); orders made once per candidate instead of once
// per input took a third of each candidate's partition (poisson3d:100, session 27).
class Splitter {
 public:
  Splitter(const PartitionInput& in, index_t n_max) : in_(in), n_max_(n_max) {}

  void set_component(index_t c) { component_ = c; }

  // Bounded: at most n_split sub-graphs, false when a vertex finds no room. Unbounded:
  // new sub-graphs are opened as needed, so it always succeeds.
  bool run(index_t n_split, index_t n_init, Criterion criterion, bool bounded) {
    sizes_.assign(static_cast<std::size_t>(n_split), 0);
    past_full_.assign(static_cast<std::size_t>(n_split), 0);
    criterion_ = static_cast<int>(criterion);
    const std::size_t size = in_.visit_order(component_, criterion_).size();
    const PartitionInput::Parents parents = in_.visit_parents(component_, criterion_);
    local_.assign(size, -1);  // by position in the visiting order
    const auto roots = static_cast<std::size_t>(in_.roots(component_));
    // Roots are dealt round-robin over the first n_init sub-graphs, so that independent
    // subtrees can start in different sub-graphs of the first sub-graph level.
    for (std::size_t r = 0; r < roots; ++r)
      if (!associate(r, static_cast<index_t>(r % static_cast<std::size_t>(n_init)), bounded)) return false;
    for (std::size_t q = roots; q < size; ++q) {
      index_t highest = 0;
      for (index_t e = parents.ptr[q]; e < parents.ptr[q + 1]; ++e) highest = std::max(highest, local_[parents.of[e]]);
      if (!associate(q, highest, bounded)) return false;
    }
    return true;  // a DAG is exhausted from its roots, so every vertex is placed
  }

  // part[v] = global[the local sub-graph of v] for every vertex v of the component, after
  // a run that succeeded.
  void assign(std::vector<index_t>& part, const std::vector<index_t>& global) const {
    const std::span<const index_t> visit = in_.visit_order(component_, criterion_);
    for (std::size_t q = 0; q < visit.size(); ++q) part[visit[q]] = global[local_[q]];
  }
  const std::vector<index_t>& sizes() const { return sizes_; }

 private:
  bool full(std::size_t k) const { return sizes_[k] >= n_max_; }

  // The first sub-graph at or after k with room (sizes_.size() if none). A sub-graph stays
  // full once full, and a full one points past itself (past_full_); following those links
  // with path halving crosses a run of full sub-graphs in near-constant amortized time.
  // A plain scan made the partition quadratic where many roots fill the first sub-graphs
  // (a colour-ordered factor: 5.8 s instead of 0.5 s for 10^6 rows at n_max 32).
  std::size_t first_with_room(std::size_t k) {
    while (k < sizes_.size() && full(k)) {
      const std::size_t after = past_full_[k];
      if (after < sizes_.size() && full(after)) past_full_[k] = past_full_[after];
      k = after;
    }
    return k;
  }

  // Alg. 2: the first sub-graph at or after `from` with room, for the vertex at position q.
  bool associate(std::size_t q, index_t from, bool bounded) {
    const std::size_t k = first_with_room(static_cast<std::size_t>(from));
    if (k == sizes_.size()) {
      if (bounded) return false;
      sizes_.push_back(0);
      past_full_.push_back(0);
    }
    if (++sizes_[k] == n_max_) past_full_[k] = k + 1;
    local_[q] = static_cast<index_t>(k);
    return true;
  }

  const PartitionInput& in_;
  index_t n_max_;
  index_t component_ = -1;
  int criterion_ = 0;
  std::vector<index_t> local_;
  std::vector<index_t> sizes_;
  std::vector<std::size_t> past_full_;  // for a full sub-graph: a later one, every one between full
};

// Split::bands on one component: bands of consecutive row levels, each as many levels as
// keep every one of its own components (edges inside the band only) within n_max. Each
// such component is a sub-graph, merged with the band's others up to n_max; bands are
// numbered in level order. One level always fits (it has no edge inside), so a band
// always has a level.
//
// Feasible: an edge goes to a higher row level, so to the same band or a later one, and
// within a band it stays inside one component. A path of sub-graphs visits one per band,
// so sub-graph levels never outnumber row levels (nor the bands).
//
// It walks the component's visiting order (PartitionInput::visit_order, criterion 0),
// whose frontiers are its row levels, so a band is a range of positions and a parent is
// in the band when its position is at or after the band's first. The components of the
// band grow by union-find as each level joins; the first level that would make one larger
// than n_max ends the band and starts the next, and the band's components are then made
// again without it. Every vertex and edge is seen at most twice per candidate.
class BandSplitter {
 public:
  BandSplitter(const PartitionInput& in, index_t n_max) : in_(in), n_max_(n_max) {}

  // Sub-graphs for component c, numbered from next_id on.
  void split(index_t c, std::vector<index_t>& part, index_t& next_id, PartitionStats& st) {
    order_ = in_.visit_order(c, 0);
    parents_ = in_.visit_parents(c, 0);
    const std::span<const index_t> levels = in_.frontiers(c);
    root_.resize(order_.size());
    size_.resize(order_.size());
    group_.assign(order_.size(), -1);
    std::size_t band = 0;  // first position of the open band
    for (std::size_t f = 0; f + 1 < levels.size(); ++f) {
      const auto begin = static_cast<std::size_t>(levels[f]), end = static_cast<std::size_t>(levels[f + 1]);
      if (!join(band, begin, end)) {
        emit(band, begin, part, next_id, st);
        band = begin;
        ++st.band_cuts;
        for (std::size_t q = begin; q < end; ++q) reset(q);  // a level alone has no edge inside
      }
    }
    emit(band, order_.size(), part, next_id, st);
  }

 private:
  void reset(std::size_t q) {
    root_[q] = static_cast<index_t>(q);
    size_[q] = 1;
  }
  index_t find(index_t q) {
    while (root_[q] != q) {
      root_[q] = root_[root_[q]];
      q = root_[q];
    }
    return q;
  }
  // Unions positions [begin, end) with their parents in the band that starts at `band`;
  // false as soon as a component would exceed n_max.
  bool join(std::size_t band, std::size_t begin, std::size_t end) {
    for (std::size_t q = begin; q < end; ++q) reset(q);
    for (std::size_t q = begin; q < end; ++q)
      for (index_t e = parents_.ptr[q]; e < parents_.ptr[q + 1]; ++e) {
        if (static_cast<std::size_t>(parents_.of[e]) < band) continue;
        index_t a = find(parents_.of[e]), b = find(static_cast<index_t>(q));
        if (a == b) continue;
        if (size_[a] + size_[b] > n_max_) return false;
        if (a > b) std::swap(a, b);
        root_[b] = a;
        size_[a] += size_[b];
      }
    return true;
  }
  // The band [begin, end): its components made again (a level that did not fit may have
  // joined some), in order of first position, into sub-graphs of up to n_max vertices.
  void emit(std::size_t begin, std::size_t end, std::vector<index_t>& part, index_t& next_id, PartitionStats& st) {
    join(begin, begin, end);  // fits: the band grew only while its components did
    // A component's sub-graph is chosen at its first position, where its root is.
    index_t bin = -1, bin_fill = 0;
    for (std::size_t q = begin; q < end; ++q) {
      const index_t r = find(static_cast<index_t>(q));
      if (r == static_cast<index_t>(q)) {
        if (bin < 0 || bin_fill + size_[r] > n_max_) {
          bin = next_id++;
          bin_fill = 0;
          ++st.split_subgraphs;
        }
        bin_fill += size_[r];
        group_[q] = bin;
      }
      part[static_cast<std::size_t>(order_[q])] = group_[r];
    }
  }

  const PartitionInput& in_;
  index_t n_max_;
  std::span<const index_t> order_;
  PartitionInput::Parents parents_;
  std::vector<index_t> root_, size_;  // union-find by position, roots at the smallest position
  std::vector<index_t> group_;        // per root position: its sub-graph
};

// Split::tiles. Each vertex of a component gets a coordinate per stride dimension
// (PartitionInput::stride_dims, at least one): the most edges of that dimension's
// strides on any path to it, made in index order (a parent has a smaller index). The
// component is cut into tiles of `side` coordinates per dimension, side^dims <= n_max;
// tiles are numbered by the sum of their tile coordinates, then the coordinates; a tile
// of more than n_max vertices (not on a grid) is cut into runs of n_max in index order.
//
// Feasible: along an edge u -> v no coordinate decreases, so v's tile is u's or one with
// no smaller tile coordinate and a larger sum, numbered later; inside a tile, runs follow
// the index. On a grid's Laplacian in natural order the coordinates are the grid's
// (offsets 1, nx, nx * ny), tiles are boxes, and the sub-graph levels are the box
// wavefront's: poisson3d:100 in boxes of 10^3 has 28, for 298 row levels.
class TileSplitter {
 public:
  TileSplitter(const PartitionInput& in, index_t n_max)
      : in_(in), n_max_(n_max), dims_(std::max(in.stride_dims, 1)), coord_(in.lower.rows) {
    side_ = 1;
    auto fits = [&](index_t s) {
      std::int64_t volume = 1;
      for (int d = 0; d < dims_; ++d) volume *= s;
      return volume <= n_max_;
    };
    while (fits(side_ + 1)) ++side_;
  }

  // Sub-graphs for component c, numbered from next_id on.
  void split(index_t c, std::vector<index_t>& part, index_t& next_id, PartitionStats& st) {
    const Csr<double>& l = in_.lower;
    const std::span<const index_t> comp(in_.comp_vertices.data() + in_.comp_ptr[c],
                                        static_cast<std::size_t>(in_.comp_ptr[c + 1] - in_.comp_ptr[c]));
    // Coordinates, then each vertex's tile (a run of vertices along the first stride
    // mostly shares one: the last tile found is tried first).
    std::vector<Tile> tiles;
    std::unordered_map<Key, index_t, KeyHash> tile_of_key;
    std::vector<index_t> tile_of(comp.size());
    Key last{-1, -1, -1};
    index_t last_tile = -1;
    for (std::size_t q = 0; q < comp.size(); ++q) {
      const index_t v = comp[q];
      Key x{0, 0, 0};
      for (index_t e = l.row_begin(v); e < l.row_end(v) - 1; ++e) {
        const index_t u = l.col[e];
        const int d = in_.stride_bucket[static_cast<std::size_t>(std::bit_width(static_cast<std::uint32_t>(v - u)) - 1)];
        const Key& cu = coord_[static_cast<std::size_t>(u)];
        for (int k = 0; k < dims_; ++k) x[k] = std::max(x[k], cu[k] + (k == d ? 1 : 0));
      }
      coord_[static_cast<std::size_t>(v)] = x;
      Key t{0, 0, 0};
      for (int k = 0; k < dims_; ++k) t[k] = x[k] / side_;
      if (t != last) {
        const auto [it, added] = tile_of_key.try_emplace(t, static_cast<index_t>(tiles.size()));
        if (added) tiles.push_back(Tile{t[0] + t[1] + t[2], t, 0});
        last = t;
        last_tile = it->second;
      }
      tile_of[q] = last_tile;
      ++tiles[static_cast<std::size_t>(last_tile)].count;
    }
    // Tiles in order of the sum of their coordinates, then the coordinates; each gets
    // ceil(count / n_max) sub-graphs from next_id on.
    std::vector<index_t> rank(tiles.size());
    std::iota(rank.begin(), rank.end(), index_t{0});
    std::sort(rank.begin(), rank.end(), [&](index_t a, index_t b) {
      const Tile &x = tiles[static_cast<std::size_t>(a)], &y = tiles[static_cast<std::size_t>(b)];
      return x.sum != y.sum ? x.sum < y.sum : x.at < y.at;
    });
    std::vector<index_t> first(tiles.size());
    for (index_t r : rank) {
      first[static_cast<std::size_t>(r)] = next_id;
      const index_t runs = (tiles[static_cast<std::size_t>(r)].count + n_max_ - 1) / n_max_;
      next_id += runs;
      st.split_subgraphs += runs;
    }
    st.tiles += static_cast<index_t>(tiles.size());
    std::vector<index_t> filled(tiles.size(), 0);
    for (std::size_t q = 0; q < comp.size(); ++q) {
      const auto t = static_cast<std::size_t>(tile_of[q]);
      part[static_cast<std::size_t>(comp[q])] = first[t] + filled[t]++ / n_max_;
    }
  }

 private:
  using Key = std::array<index_t, 3>;  // coordinates, 0 beyond dims_
  struct KeyHash {
    std::size_t operator()(const Key& k) const {
      std::uint64_t h = 0x9e3779b97f4a7c15ull;
      for (index_t x : k) h = (h ^ static_cast<std::uint32_t>(x)) * 0xbf58476d1ce4e5b9ull;
      return static_cast<std::size_t>(h ^ (h >> 31));
    }
  };
  struct Tile {
    index_t sum;
    Key at;
    index_t count;
  };

  const PartitionInput& in_;
  index_t n_max_;
  int dims_;
  index_t side_ = 1;
  std::vector<Key> coord_;  // per vertex, made component by component
};

constexpr std::size_t kCriteria = 3;
// At least this many vertices per range of a visiting order (or of the components whose
// orders are prepared): with 2^16, the order of nh2010 (48837 rows, one component) was
// made on one thread, 4.8 ms of its analysis on the H200 host (session 29).
constexpr std::size_t kMinRangeVertices = std::size_t{1} << 13;

}  // namespace

// The visiting orders (PartitionInput::visit_order), made on first use. A component's
// entries of `layered` and `sorted` are its range of comp_vertices, [comp_ptr[c],
// comp_ptr[c + 1]), so threads making different components' orders touch disjoint
// entries. The per-component flags are allocated with the first order (a matrix none of
// whose components is split never pays for them). The arrays are left uninitialised
// where they are allocated and written first by the ranges that make them: zeroed when
// allocated (24 MB for poisson3d:100), they were a serial pass of the analysis's head,
// and the first orders took 28-30 instead of 17.5-18 ms (H200 host, session 29).
struct PartitionInput::Orders {
  std::once_flag allocated;
  std::unique_ptr<std::once_flag[]> layered_once;
  std::unique_ptr<index_t[]> layered;              // frontiers one after the other, per component
  std::vector<std::vector<index_t>> frontier_ptr;  // per component: frontiers + 1 offsets, from 0
  std::array<std::once_flag, kCriteria> sorted_allocated;
  std::array<std::unique_ptr<std::once_flag[]>, kCriteria> sorted_once;
  std::array<std::unique_ptr<index_t[]>, kCriteria> sorted;  // layered, each frontier sorted by the criterion
  // Per criterion and component: the parents of each vertex of the sorted order as
  // positions in it (parent_ptr: size + 1 offsets from 0), and the positions by vertex
  // (scratch while they are made).
  std::array<std::vector<std::unique_ptr<index_t[]>>, kCriteria> parent_ptr, parents;
  std::array<std::unique_ptr<index_t[]>, kCriteria> position;
};

PartitionInput::~PartitionInput() = default;

// Groups of octaves apart from each other, each with at least 1% of the entries (a thin
// octave joins the group below it, or the first group).
void PartitionInput::find_strides(const std::array<std::int64_t, 32>& octaves) {
  std::int64_t total = 0;
  for (std::int64_t c : octaves) total += c;
  int groups = 0;
  bool in_group = false;
  for (std::size_t b = 0; b < octaves.size(); ++b) {
    const bool thick = total > 0 && 100 * octaves[b] >= total;
    if (thick && !in_group) ++groups;
    in_group = thick;
    stride_bucket[b] = static_cast<std::int8_t>(std::max(groups - 1, 0));
  }
  if (groups > kMaxStrideDims) {
    stride_bucket.fill(0);
    groups = 0;
  }
  stride_dims = groups;
}

index_t PartitionInput::roots(index_t c) const { return frontiers(c)[1]; }

std::span<const index_t> PartitionInput::frontiers(index_t c) const {
  visit_order(c, 0);
  return orders_->frontier_ptr[static_cast<std::size_t>(c)];
}

std::span<const index_t> PartitionInput::visit_order(index_t c, int criterion) const {
  Orders& o = *orders_;
  const auto n = static_cast<std::size_t>(lower.rows);
  const auto comps = static_cast<std::size_t>(components);
  const auto cc = static_cast<std::size_t>(c);
  const auto k = static_cast<std::size_t>(criterion);
  const index_t base = comp_ptr[cc];
  const auto size = static_cast<std::size_t>(comp_ptr[cc + 1] - base);
  std::call_once(o.allocated, [&] {
    o.layered_once = std::make_unique<std::once_flag[]>(comps);
    o.layered = std::make_unique_for_overwrite<index_t[]>(n);
    o.frontier_ptr.resize(comps);
  });
  std::call_once(o.layered_once[cc], [&] {
    // Kahn's frontiers (the roots, then the vertices whose parents are all in earlier
    // frontiers) are the row levels: a counting sort of the component's vertices by level.
    // The order inside a frontier does not matter, the sorts below are total.
    const index_t* comp = comp_vertices.data() + base;
    index_t top = 0;
    for (std::size_t i = 0; i < size; ++i) top = std::max(top, level[static_cast<std::size_t>(comp[i])]);
    std::vector<index_t>& ptr = o.frontier_ptr[cc];
    ptr.assign(static_cast<std::size_t>(top) + 2, 0);
    for (std::size_t i = 0; i < size; ++i) ++ptr[static_cast<std::size_t>(level[static_cast<std::size_t>(comp[i])]) + 1];
    for (index_t f = 0; f <= top; ++f) ptr[f + 1] += ptr[f];
    std::vector<index_t> fill(ptr.begin(), ptr.end() - 1);
    index_t* out = o.layered.get() + base;
    for (std::size_t i = 0; i < size; ++i) out[fill[level[static_cast<std::size_t>(comp[i])]]++] = comp[i];
  });
  std::call_once(o.sorted_allocated[k], [&] {
    o.sorted_once[k] = std::make_unique<std::once_flag[]>(comps);
    o.sorted[k] = std::make_unique_for_overwrite<index_t[]>(n);
    o.parent_ptr[k].resize(comps);
    o.parents[k].resize(comps);
    o.position[k] = std::make_unique_for_overwrite<index_t[]>(n);
  });
  std::call_once(o.sorted_once[k][cc], [&] {
    index_t* out = o.sorted[k].get() + base;
    const index_t* layered = o.layered.get() + base;
    const std::vector<index_t>& ptr = o.frontier_ptr[cc];
    index_t* position = o.position[k].get();
    o.parent_ptr[k][cc] = std::make_unique_for_overwrite<index_t[]>(size + 1);
    index_t* parent_ptr = o.parent_ptr[k][cc].get();
    parent_ptr[0] = 0;
    // Each frontier copied and sorted, then its vertices' positions and parent counts noted.
    auto sort_frontiers = [&](std::size_t f0, std::size_t f1) {
      std::vector<std::uint64_t> keys;
      std::copy(layered + ptr[f0], layered + ptr[f1], out + ptr[f0]);
      for (std::size_t f = f0; f < f1; ++f) {
        sort_by(std::span<index_t>(out + ptr[f], static_cast<std::size_t>(ptr[f + 1] - ptr[f])),
                static_cast<Criterion>(criterion), *this, keys);
        for (auto q = static_cast<std::size_t>(ptr[f]); q < static_cast<std::size_t>(ptr[f + 1]); ++q) {
          position[out[q]] = static_cast<index_t>(q);
          parent_ptr[q + 1] = lower.row_length(out[q]) - 1;  // the diagonal is a row's last entry
        }
      }
    };
    // The parents of each vertex as positions: every candidate's attempts then read them
    // in visiting order, one after the other, where reading the rows of vertices visited
    // in degree order (and the sub-graphs of their parents by vertex) was a cache miss each.
    index_t* parents = nullptr;
    auto list_parents = [&](std::size_t f0, std::size_t f1) {
      for (auto q = static_cast<std::size_t>(ptr[f0]); q < static_cast<std::size_t>(ptr[f1]); ++q) {
        index_t at = parent_ptr[q];
        for (index_t e = lower.row_begin(out[q]); e < lower.row_end(out[q]) - 1; ++e) parents[at++] = position[lower.col[e]];
      }
    };
    // The frontiers of a large component are handled on several threads, in ranges of
    // about equal vertex counts: a mesh in natural order is one component, and its order
    // was the longest serial step of every candidate's partition.
    const std::size_t frontiers = ptr.size() - 1;
    const std::vector<std::size_t> ranges =
        detail::balanced_ranges(frontiers, detail::range_count(size, kMinRangeVertices, frontiers),
                                [&](std::size_t f) { return ptr[f]; });
    detail::for_each_range(ranges, [&](std::size_t, std::size_t f0, std::size_t f1) { sort_frontiers(f0, f1); });
    for (std::size_t q = 0; q < size; ++q) parent_ptr[q + 1] += parent_ptr[q];
    o.parents[k][cc] = std::make_unique_for_overwrite<index_t[]>(static_cast<std::size_t>(parent_ptr[size]));
    parents = o.parents[k][cc].get();
    detail::for_each_range(ranges, [&](std::size_t, std::size_t f0, std::size_t f1) { list_parents(f0, f1); });
  });
  return {o.sorted[k].get() + base, size};
}

PartitionInput::Parents PartitionInput::visit_parents(index_t c, int criterion) const {
  visit_order(c, criterion);
  const auto cc = static_cast<std::size_t>(c);
  const auto k = static_cast<std::size_t>(criterion);
  const index_t* ptr = orders_->parent_ptr[k][cc].get();
  const auto size = static_cast<std::size_t>(comp_ptr[cc + 1] - comp_ptr[cc]);
  return {{ptr, size + 1}, {orders_->parents[k][cc].get(), static_cast<std::size_t>(ptr[size])}};
}

void PartitionInput::prepare_orders(index_t n_min) const {
  // Components of at most n_min vertices are merged, never split, by every candidate.
  std::vector<index_t> split;
  for (index_t c = 0; c < components; ++c)
    if (comp_ptr[c + 1] - comp_ptr[c] > n_min) split.push_back(c);
  // Ranges of components of about equal vertex counts, one per thread.
  std::vector<std::size_t> before{0};  // vertices of split[0, i)
  for (index_t c : split) before.push_back(before.back() + static_cast<std::size_t>(comp_ptr[c + 1] - comp_ptr[c]));
  detail::for_each_range(
      detail::balanced_ranges(split.size(), detail::range_count(before.back(), kMinRangeVertices, split.size()),
                              [&](std::size_t i) { return before[i]; }),
      [&](std::size_t, std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) visit_order(split[i], 0);
      });
}

void require_lower_with_diagonal(const Csr<double>& lower, const char* what) {
  sparse::require_square(lower, what);
  for (index_t i = 0; i < lower.rows; ++i) {
    const index_t b = lower.row_begin(i), e = lower.row_end(i);
    if (e > b && lower.col[e - 1] > i)
      throw std::invalid_argument(
          std::string(what) + ": entry above the diagonal in row " + std::to_string(i) +
          " (column " + std::to_string(lower.col[e - 1]) + "), expected lower triangular");
    if (e == b || lower.col[e - 1] != i)
      throw std::invalid_argument(std::string(what) + ": missing diagonal at row " +
                                  std::to_string(i) + " (0-based)");
  }
}

PartitionInput::PartitionInput(const Csr<double>& l) : lower(l), orders_(std::make_unique<Orders>()) {
  require_lower_with_diagonal(lower, "sptrsv::partition");
  const index_t n = lower.rows;
  // The components, the row levels and the out-degrees are independent passes over L
  // (analyze's serial head, before the candidates start).
  sparse::Components comps;
  std::array<std::int64_t, 32> octaves{};  // off-diagonal entries by floor(log2(row - column))
  detail::side_by_side([&] { comps = sparse::weakly_connected_components(lower, 0); },
                       [&] { levels = sparse::row_levels(lower, sparse::Triangle::lower, level); },
                       [&] {
                         out_degree.assign(static_cast<std::size_t>(n), 0);
                         for (index_t i = 0; i < n; ++i)
                           for (index_t k = lower.row_begin(i); k < lower.row_end(i) - 1; ++k) {
                             ++out_degree[lower.col[k]];
                             ++octaves[std::bit_width(static_cast<std::uint32_t>(i - lower.col[k])) - 1];
                           }
                       });
  find_strides(octaves);
  components = comps.count;
  comp_ptr.assign(static_cast<std::size_t>(comps.count) + 1, 0);
  for (index_t v = 0; v < n; ++v) ++comp_ptr[comps.label[v] + 1];
  for (index_t c = 0; c < comps.count; ++c) comp_ptr[c + 1] += comp_ptr[c];
  comp_vertices.resize(static_cast<std::size_t>(n));
  {
    std::vector<index_t> fill(comp_ptr.begin(), comp_ptr.end() - 1);
    for (index_t v = 0; v < n; ++v) comp_vertices[fill[comps.label[v]]++] = v;
  }
}

Partition partition(const Csr<double>& lower, index_t n_max, PartitionStats* stats, Split split) {
  return partition(PartitionInput(lower), n_max, stats, split);
}

Partition partition(const PartitionInput& in, index_t n_max, PartitionStats* stats, Split split) {
  if (n_max < 1)
    throw std::invalid_argument("sptrsv::partition: n_max must be at least 1, got " +
                                std::to_string(n_max));
  const Csr<double>& lower = in.lower;
  const index_t n = lower.rows;
  PartitionStats st;
  Partition p;
  p.n_max = n_max;
  p.part.assign(static_cast<std::size_t>(n), -1);
  st.components = in.components;
  const std::vector<index_t>& comp_ptr = in.comp_ptr;
  const std::vector<index_t>& comp_vertices = in.comp_vertices;

  Splitter splitter(in, n_max);
  std::optional<BandSplitter> bands;
  std::optional<TileSplitter> tiles;
  index_t next_id = 0;
  // The open merge sub-graph stays open across split components: they share no edge
  // with it, so the numbering stays feasible.
  index_t bin = -1;
  index_t bin_fill = 0;
  for (index_t c = 0; c < in.components; ++c) {
    const std::span<const index_t> comp(comp_vertices.data() + comp_ptr[c],
                                        static_cast<std::size_t>(comp_ptr[c + 1] - comp_ptr[c]));
    const auto size = static_cast<index_t>(comp.size());
    if (size <= n_max) {
      ++st.merged_components;
      if (bin < 0 || bin_fill + size > n_max) {
        bin = next_id++;
        bin_fill = 0;
        ++st.merged_subgraphs;
      }
      for (index_t v : comp) p.part[v] = bin;
      bin_fill += size;
      continue;
    }
    ++st.split_components;
    auto split_with = [&](auto& splitter) {  // made at the first component it splits
      if (!splitter) splitter.emplace(in, n_max);
      splitter->split(c, p.part, next_id, st);
    };
    if (split == Split::bands) {
      split_with(bands);
      continue;
    }
    if (split == Split::tiles) {
      split_with(tiles);
      continue;
    }
    const index_t n_split = (size + n_max - 1) / n_max;
    const index_t n_init_first = std::min<index_t>(n_split, in.roots(c));
    splitter.set_component(c);
    bool done = false;
    constexpr std::array criteria{Criterion::out_degree_descending, Criterion::out_degree_ascending,
                                  Criterion::index_ascending};
    for (Criterion criterion : criteria) {
      for (index_t n_init = n_init_first; n_init > 0 && !done; n_init /= 2) {
        ++st.heuristic_attempts;
        done = splitter.run(n_split, n_init, criterion, true);
      }
      if (done) break;
    }
    if (!done) {
      // The paper ends with an error here; opening more than n_split sub-graphs instead
      // keeps every input solvable at the price of extra sub-graphs.
      ++st.heuristic_attempts;
      ++st.unbounded_fallbacks;
      splitter.run(n_split, n_init_first, Criterion::out_degree_descending, false);
    }
    // Drop sub-graphs left empty (only possible after the fallback) and keep the order.
    const std::vector<index_t>& sizes = splitter.sizes();
    std::vector<index_t> global(sizes.size(), -1);
    for (std::size_t k = 0; k < sizes.size(); ++k)
      if (sizes[k] > 0) {
        global[k] = next_id++;
        ++st.split_subgraphs;
      }
    splitter.assign(p.part, global);
  }

  p.parts = next_id;
  p.part_ptr.assign(static_cast<std::size_t>(p.parts) + 1, 0);
  for (index_t v = 0; v < n; ++v) ++p.part_ptr[p.part[v] + 1];
  for (index_t g = 0; g < p.parts; ++g) p.part_ptr[g + 1] += p.part_ptr[g];
  p.vertices.resize(static_cast<std::size_t>(n));
  std::vector<index_t> fill(p.part_ptr.begin(), p.part_ptr.end() - 1);
  for (index_t v = 0; v < n; ++v) p.vertices[fill[p.part[v]]++] = v;
  if (stats) *stats = st;
  return p;
}

bool is_feasible(const Csr<double>& lower, const Partition& p, std::string* why) {
  auto fail = [&](const std::string& msg) {
    if (why) *why = msg;
    return false;
  };
  const index_t n = lower.rows;
  if (!lower.is_square()) return fail("matrix is not square");
  if (p.n_max < 1) return fail("n_max " + std::to_string(p.n_max) + " < 1");
  if (p.part.size() != static_cast<std::size_t>(n) ||
      p.vertices.size() != static_cast<std::size_t>(n))
    return fail("part or vertices does not have one entry per vertex");
  if (p.parts < 0 || p.part_ptr.size() != static_cast<std::size_t>(p.parts) + 1 ||
      p.part_ptr[0] != 0 || p.part_ptr.back() != n)
    return fail("part_ptr does not hold parts + 1 offsets from 0 to n");
  for (index_t g = 0; g < p.parts; ++g) {
    const index_t size = p.part_ptr[g + 1] - p.part_ptr[g];
    if (size < 0) return fail("part_ptr decreases at sub-graph " + std::to_string(g));
    if (size > p.n_max)
      return fail("sub-graph " + std::to_string(g) + " holds " + std::to_string(size) +
                  " vertices, more than n_max = " + std::to_string(p.n_max));
  }
  std::vector<char> seen(static_cast<std::size_t>(n), 0);
  for (index_t g = 0; g < p.parts; ++g)
    for (index_t k = p.part_ptr[g]; k < p.part_ptr[g + 1]; ++k) {
      const index_t v = p.vertices[k];
      if (v < 0 || v >= n) return fail("vertex " + std::to_string(v) + " out of range");
      if (seen[v]) return fail("vertex " + std::to_string(v) + " listed twice");
      seen[v] = 1;
      if (p.part[v] != g)
        return fail("vertex " + std::to_string(v) + " listed in sub-graph " + std::to_string(g) +
                    " but part says " + std::to_string(p.part[v]));
      if (k > p.part_ptr[g] && p.vertices[k - 1] >= v)
        return fail("vertices of sub-graph " + std::to_string(g) + " not ascending");
    }
  for (index_t i = 0; i < n; ++i)
    for (index_t k = lower.row_begin(i); k < lower.row_end(i); ++k) {
      const index_t j = lower.col[k];
      if (j < i && p.part[j] > p.part[i])
        return fail("edge " + std::to_string(j) + " -> " + std::to_string(i) +
                    " goes from sub-graph " + std::to_string(p.part[j]) + " down to sub-graph " +
                    std::to_string(p.part[i]));
    }
  if (why) why->clear();
  return true;
}

double SubgraphDag::internal_share() const {
  const std::int64_t all = internal_edges + external_edges;
  return all == 0 ? 1.0 : static_cast<double>(internal_edges) / static_cast<double>(all);
}

SubgraphDag subgraph_dag(const Csr<double>& lower, const Partition& p) {
  std::string why;
  if (!is_feasible(lower, p, &why))
    throw std::invalid_argument("sptrsv::subgraph_dag: partition not feasible: " + why);
  return detail::subgraph_dag_of_feasible(lower, p);
}

namespace {

// Calls f(h) for every edge of L into sub-graph g from another sub-graph h; returns the
// number of g's internal (off-diagonal) edges.
template <class F>
std::int64_t for_each_external_source(const Csr<double>& lower, const Partition& p, index_t g, F&& f) {
  std::int64_t internal = 0;
  for (index_t k = p.part_ptr[g]; k < p.part_ptr[g + 1]; ++k) {
    const index_t i = p.vertices[k];
    for (index_t e = lower.row_begin(i); e < lower.row_end(i); ++e) {
      const index_t j = lower.col[e];
      if (j >= i) continue;
      const index_t h = p.part[j];
      if (h == g)
        ++internal;
      else
        f(h);
    }
  }
  return internal;
}

}  // namespace

SubgraphDag detail::subgraph_dag_of_feasible(const Csr<double>& lower, const Partition& p, DagContent content) {
  SubgraphDag d;
  d.subgraphs = p.parts;
  d.level.assign(static_cast<std::size_t>(p.parts), 0);
  for (index_t g = 0; g < p.parts; ++g) {
    // Feasibility puts every predecessor at a lower index, so its level is known.
    index_t level = 0;
    d.internal_edges += for_each_external_source(lower, p, g, [&](index_t h) {
      ++d.external_edges;
      level = std::max(level, d.level[h] + 1);
    });
    d.level[g] = level;
    d.levels = std::max(d.levels, level + 1);
  }
  d.level_ptr.assign(static_cast<std::size_t>(d.levels) + 1, 0);
  for (index_t g = 0; g < p.parts; ++g) ++d.level_ptr[d.level[g] + 1];
  for (index_t l = 0; l < d.levels; ++l) d.level_ptr[l + 1] += d.level_ptr[l];
  d.order.resize(static_cast<std::size_t>(p.parts));
  std::vector<index_t> fill(d.level_ptr.begin(), d.level_ptr.end() - 1);
  for (index_t g = 0; g < p.parts; ++g) d.order[fill[d.level[g]]++] = g;
  if (content == DagContent::all) add_predecessors(d, lower, p);
  return d;
}

void detail::add_predecessors(SubgraphDag& d, const Csr<double>& lower, const Partition& p, unsigned threads,
                              std::size_t min_range) {
  // Sub-graphs' lists are independent: ranges of sub-graphs of about equal vertex counts,
  // each with its own marks, joined in order.
  const auto parts = static_cast<std::size_t>(p.parts);
  const std::vector<std::size_t> range_begin = balanced_ranges(
      parts, range_count(static_cast<std::size_t>(lower.rows), min_range, parts, std::max(threads, 1u)),
      [&](std::size_t g) { return p.part_ptr[g]; });
  struct Lists {
    std::vector<index_t> end;  // per sub-graph of the range, into pred
    std::vector<index_t> pred;
  };
  std::vector<Lists> lists(range_begin.size() - 1);
  for_each_range(range_begin, [&](std::size_t r, std::size_t g0, std::size_t g1) {
    Lists& out = lists[r];
    std::vector<index_t> last_seen(parts, -1);
    for (auto g = static_cast<index_t>(g0); g < static_cast<index_t>(g1); ++g) {
      const std::size_t first = out.pred.size();
      for_each_external_source(lower, p, g, [&](index_t h) {
        if (last_seen[h] != g) {
          last_seen[h] = g;
          out.pred.push_back(h);
        }
      });
      std::sort(out.pred.begin() + static_cast<std::ptrdiff_t>(first), out.pred.end());
      out.end.push_back(static_cast<index_t>(out.pred.size()));
    }
  });
  d.pred_ptr.assign(1, 0);
  d.pred.clear();
  for (const Lists& range : lists) {
    const auto base = static_cast<index_t>(d.pred.size());
    for (index_t end : range.end) d.pred_ptr.push_back(base + end);
    d.pred.insert(d.pred.end(), range.pred.begin(), range.pred.end());
  }
}

}  // namespace apiary::sptrsv
