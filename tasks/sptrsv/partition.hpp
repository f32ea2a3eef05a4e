// Partitioning of the DAG of a lower-triangular solve into TASSL sub-graphs
// (Picciau et al., "Balancing locality and concurrency", HiPC 2016).
//
// Model: L is n x n lower triangular with a stored diagonal; vertex i is the unknown
// x_i and each stored L(i, j), j < i, is an edge j -> i. A sub-graph holds at most n_max
// vertices, so that one GPU task can keep its unknowns in shared memory. The partition
// is feasible when every edge goes from a sub-graph to an equal or higher one: solving
// sub-graphs in index order (or level by level in the sub-graph DAG) is then correct.
//
// Plain host C++; the rules and the choices made where the paper is silent are in
// docs/sptrsv.md.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "sparse/formats.hpp"

namespace apiary::sptrsv {

using sparse::Csr;
using sparse::index_t;

struct Partition {
  index_t n_max = 1;
  std::vector<index_t> part;         // sub-graph of each vertex
  index_t parts = 0;                 // number of sub-graphs, none of them empty
  std::vector<index_t> part_ptr{0};  // parts + 1 offsets into vertices
  // Vertices of each sub-graph, ascending. Read as one array it is also the permutation
  // perm[new] = old (sparse/transform.hpp convention) that makes sub-graphs contiguous;
  // a vertex's position in it is its "permuted index".
  std::vector<index_t> vertices;
};

// What partition() did, for reports and tests.
struct PartitionStats {
  index_t components = 0;           // weakly connected components (isolated vertices included)
  index_t merged_components = 0;    // components of <= n_max vertices, merged greedily
  index_t merged_subgraphs = 0;     // sub-graphs made of merged components
  index_t split_components = 0;     // components of > n_max vertices, split by the heuristic
  index_t split_subgraphs = 0;      // sub-graphs made by splitting
  index_t heuristic_attempts = 0;   // runs of the splitting heuristic, all components
  index_t unbounded_fallbacks = 0;  // components where every bounded attempt failed
  index_t band_cuts = 0;            // Split::bands: bands ended by a level that did not fit
  index_t tiles = 0;                // Split::tiles: tiles of the components split in tiles
};

// Throws std::invalid_argument unless `lower` is square, has no entry above the
// diagonal and stores every diagonal entry (the message names the first bad row and
// starts with `what`). A stored zero diagonal passes: partitioning needs the pattern only.
void require_lower_with_diagonal(const Csr<double>& lower, const char* what);

// What partitioning needs of L whatever n_max, made once: the input checked with
// require_lower_with_diagonal, its weakly connected components, row levels and
// out-degrees, and the splitting heuristic's visiting orders. analyze
// (tasks/sptrsv/analysis.cpp) shares one between its n_max candidates, which partition
// concurrently. It refers to `lower`, which must outlive it.
struct PartitionInput {
  explicit PartitionInput(const Csr<double>& lower);
  ~PartitionInput();
  PartitionInput(const PartitionInput&) = delete;
  PartitionInput& operator=(const PartitionInput&) = delete;

  const Csr<double>& lower;
  index_t components = 0;
  std::vector<index_t> comp_ptr;       // components + 1 offsets into comp_vertices
  std::vector<index_t> comp_vertices;  // the vertices of each component, ascending
  std::vector<index_t> out_degree;     // per vertex: how many children (the sort criteria's key)
  std::vector<index_t> level;          // per vertex: its row level (longest path from a root)
  index_t levels = 0;                  // row levels of L
  // The strides of L's off-diagonal entries (row - column) in groups of powers of two:
  // runs of octaves [2^b, 2^(b+1)) that each hold at least 1% of the entries, apart from
  // each other. A grid's Laplacian in natural order has one group per dimension (offsets
  // 1, nx, nx * ny). stride_bucket[b] is the group of octave b (a thin octave counts
  // with the group below it); stride_dims the number of groups, 0 when more than
  // kMaxStrideDims (Split::tiles needs 2 or 3).
  static constexpr int kMaxStrideDims = 3;
  int stride_dims = 0;
  std::array<std::int8_t, 32> stride_bucket{};

  // The order in which the splitting heuristic visits component c under sort criterion
  // `criterion` (0-2, partition.cpp): its frontiers one after the other (Kahn's
  // layering: the roots, then the vertices whose parents are all in earlier frontiers;
  // frontier f holds the component's vertices of row level f), each sorted by the
  // criterion; and the size of its first frontier (the roots). Which
  // vertex is in which frontier depends on the DAG only, not on n_max, so each order is
  // made once, on first use, and then shared by every candidate. Thread-safe.
  std::span<const index_t> visit_order(index_t c, int criterion) const;
  index_t roots(index_t c) const;
  // The frontiers of that order (its row levels): frontiers + 1 offsets into it, from 0.
  std::span<const index_t> frontiers(index_t c) const;
  // The parents of each vertex of that order, as positions in it: those of the vertex at
  // position q are of[ptr[q]], ..., of[ptr[q + 1] - 1]. Made with the order.
  struct Parents {
    std::span<const index_t> ptr;
    std::span<const index_t> of;
  };
  Parents visit_parents(index_t c, int criterion) const;
  // Makes the first criterion's orders of every component of more than n_min vertices
  // now, on several threads (analyze, before its candidates, which would otherwise all
  // wait for the one making the order of the component they reach first).
  void prepare_orders(index_t n_min) const;

 private:
  void find_strides(const std::array<std::int64_t, 32>& octaves);
  struct Orders;
  std::unique_ptr<Orders> orders_;
};

// How a component of more than n_max vertices is split.
enum class Split {
  // The paper's heuristic: each vertex into the highest sub-graph of its parents or the
  // next one with room. Few sub-graphs, but where rows are many and row levels few they
  // chain: nh2010 (19 row levels) had 8 sub-graph levels at n_max 6144, 174 at n_max 32.
  heuristic,
  // Bands of consecutive row levels, each as deep as keeps its own components (edges
  // inside the band only) within n_max; each such component is a sub-graph (merged with
  // the band's others up to n_max). Sub-graph levels then never outnumber row levels,
  // and a band's independent pieces run side by side.
  bands,
  // Tiles of coordinates that grow along the strides of L (PartitionInput::stride_dims
  // of them): a vertex's coordinate in a stride's dimension is the most edges of that
  // stride on a path to it. On a grid's Laplacian in natural order these are the grid's
  // coordinates, and tiles are boxes of side n_max^(1/dims), each holding several row
  // levels; a 3D mesh then has a few dozen sub-graph levels where the other splits keep
  // about one per row level. Any L is split feasibly; without 2 or 3 strides the tiles
  // are bands of levels cut by index.
  tiles,
};

// Feasible partition into sub-graphs of at most n_max vertices (n_max >= 1, else
// std::invalid_argument; the input is checked with require_lower_with_diagonal).
// Components of at most n_max vertices are merged greedily whatever `split` says.
Partition partition(const Csr<double>& lower, index_t n_max, PartitionStats* stats = nullptr,
                    Split split = Split::heuristic);
Partition partition(const PartitionInput& in, index_t n_max, PartitionStats* stats = nullptr,
                    Split split = Split::heuristic);

// True when every vertex is in exactly one sub-graph, no sub-graph holds more than
// p.n_max vertices, the arrays agree with each other, and every edge goes to an equal or
// higher sub-graph. On false, *why (when given) says what is wrong.
bool is_feasible(const Csr<double>& lower, const Partition& p, std::string* why = nullptr);

// The DAG whose vertices are sub-graphs: h -> g when some edge of L goes from a vertex
// of h to a vertex of g != h. Its levels are the sub-graph levels of the paper: all
// sub-graphs of one level can run concurrently once the earlier levels are done.
struct SubgraphDag {
  index_t subgraphs = 0;
  std::vector<index_t> pred_ptr{0};  // subgraphs + 1 offsets into pred
  std::vector<index_t> pred;         // distinct predecessor sub-graphs, ascending
  std::vector<index_t> level;        // per sub-graph, 0-based
  index_t levels = 0;
  std::vector<index_t> level_ptr{0};  // levels + 1 offsets into order
  std::vector<index_t> order;         // sub-graphs grouped by level, ascending inside one
  std::int64_t internal_edges = 0;    // off-diagonal entries inside one sub-graph
  std::int64_t external_edges = 0;    // off-diagonal entries between sub-graphs

  // internal / (internal + external); 1 when L has no off-diagonal entry (nothing
  // crosses a sub-graph boundary).
  double internal_share() const;
};

// p must be feasible for lower (std::invalid_argument otherwise).
SubgraphDag subgraph_dag(const Csr<double>& lower, const Partition& p);

namespace detail {
// What subgraph_dag_of_feasible fills in: the whole DAG, or all but the predecessor
// lists (pred_ptr stays {0}, pred empty): the levels the model compares analyze's
// candidates by, without gathering, sorting and de-duplicating each sub-graph's
// predecessors (most of the DAG's time where sub-graphs are small).
enum class DagContent { all, levels };

// subgraph_dag without the feasibility check, for a partition that partition() made of
// this `lower` (analyze: the check is a pass over every edge, per n_max candidate).
SubgraphDag subgraph_dag_of_feasible(const Csr<double>& lower, const Partition& p,
                                     DagContent content = DagContent::all);

// Fills in the predecessor lists of a DAG made with DagContent::levels (analyze, for its
// chosen candidate), on up to `threads` threads in ranges of sub-graphs of at least
// min_range vertices each; the result is the same.
void add_predecessors(SubgraphDag& d, const Csr<double>& lower, const Partition& p, unsigned threads = 1,
                      std::size_t min_range = std::size_t{1} << 16);
}  // namespace detail

}  // namespace apiary::sptrsv
