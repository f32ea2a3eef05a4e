// The host-side control of the level-synchronous RCM, written once over an "engine" that
// does the breadth-first work: the device engine (rcm_gpu.cu) and the host emulation
// (rcm_emulation.cpp) share it, so the component loop, the start-node search and the
// argument checks that the GPU runs are the ones the host tests exercise.
//
// An engine offers, each call synchronous (its work is finished when it returns):
//   index_t degree(index_t v);                         // self-loops excluded
//   index_t least_degree_vertex();                      // of least (degree, index)
//   BfsLevels bfs(index_t root);                        // rooted level structure
//   index_t min_degree_in_last_level();                 // of the last bfs; ties: smallest index
//   CmOrder cuthill_mckee(index_t root, index_t* end);  // its order reversed, ending at end
#pragma once

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sparse/formats.hpp"
#include "sparse/rcm.hpp"

namespace apiary::rcm {

using sparse::index_t;

struct BfsLevels {
  index_t levels = 0;  // non-empty levels
  index_t size = 0;    // vertices reached
};

// A Cuthill–McKee search's outcome; its order went reversed into the `size` entries
// before the `end` the driver gave (the final permutation reverses the concatenated
// orders, so each engine writes its part in place and nothing is copied twice).
struct CmOrder {
  index_t levels = 0;
  index_t size = 0;
};

struct DriverResult {
  std::vector<index_t> perm;  // perm[new] = old
  std::vector<index_t> start_nodes;
  index_t components = 0;
  index_t isolated = 0;     // one-vertex components (no neighbour but itself)
  index_t cm_levels = 0;    // levels of all Cuthill–McKee searches together
  int bfs_count = 0;        // searches of the start-node finder
  double start_ms = 0;      // start-node search
  double permutation_ms = 0;  // Cuthill–McKee searches and sorts, the orders written reversed
};

// Degree of v in g without its self-loop: what every engine's degree(v) returns.
inline index_t degree_without_loops(const sparse::Csr<double>& g, index_t v) {
  index_t d = 0;
  for (index_t k = g.row_begin(v); k < g.row_end(v); ++k) d += g.col[k] != v;
  return d;
}

namespace detail {
inline double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace detail

// George–Liu pseudo-peripheral node from start, as sparse::pseudo_peripheral_node: the
// last root whose BFS was deeper than the one before (the engine may have ordered its
// levels while the final, no deeper BFS ran).
template <class Engine>
index_t find_start_node(Engine& e, index_t start, int& bfs_count) {
  index_t node = start;
  BfsLevels b = e.bfs(start);
  ++bfs_count;
  index_t levels = b.levels;
  const index_t size = b.size;
  while (levels > 1 && levels < size) {
    const index_t best = e.min_degree_in_last_level();
    b = e.bfs(best);
    ++bfs_count;
    if (b.levels <= levels) break;
    node = best;
    levels = b.levels;
  }
  return node;
}

// Components in the order of sparse::LeastDegreeFirst (the component of the unvisited
// vertex of least (degree, index) next), each rooted at the pseudo-peripheral node found
// from that vertex, or at given[c]; the concatenated Cuthill–McKee order reversed as a
// whole (the convention of sparse::rcm). std::invalid_argument for bad given roots, with
// the messages of sparse::rcm_from.
template <class Engine>
DriverResult drive_rcm(Engine& e, index_t n, const std::vector<index_t>* given) {
  using clock = std::chrono::steady_clock;
  DriverResult r;
  std::vector<std::uint8_t> visited(static_cast<std::size_t>(n), 0);
  r.perm.resize(static_cast<std::size_t>(n));
  index_t left = n;  // r.perm[left, n): the components so far, the first one last
  // Only a graph of several components asks for a second vertex: the counting sort over
  // the host's degrees is not paid for a connected one.
  sparse::LeastDegreeFirst next(n, n > 0 ? e.least_degree_vertex() : 0, [&e](index_t v) { return e.degree(v); });
  for (index_t v = next.next(visited.data()); v >= 0; v = next.next(visited.data())) {
    index_t root = v;
    if (given != nullptr) {
      const std::size_t c = static_cast<std::size_t>(r.components);
      if (c >= given->size())
        throw std::invalid_argument("rcm_gpu: " + std::to_string(given->size()) + " start nodes for more components");
      root = (*given)[c];
      if (root < 0 || root >= n || visited[root])
        throw std::invalid_argument("rcm_gpu: start node " + std::to_string(root) + " of component " +
                                    std::to_string(c) + " is out of range or in an earlier component");
    } else if (e.degree(v) > 0) {
      const auto t0 = clock::now();
      root = find_start_node(e, v, r.bfs_count);
      r.start_ms += detail::ms_since(t0);
    }
    const auto t0 = clock::now();
    const index_t end = left;
    if (e.degree(root) == 0) {
      r.perm[static_cast<std::size_t>(--left)] = root;  // nobody is adjacent to it: no search needed
      ++r.isolated;
      ++r.cm_levels;
    } else {
      const CmOrder o = e.cuthill_mckee(root, r.perm.data() + end);
      if (o.size < 1 || o.size > end)
        throw std::logic_error("rcm_gpu: a search ordered " + std::to_string(o.size) + " vertices with " +
                               std::to_string(end) + " left");
      left -= o.size;
      r.cm_levels += o.levels;
    }
    // Once every vertex is ordered (a connected graph: at once) nothing is left to mark:
    // on a million vertices the marking alone took 2 ms.
    const bool all = left == 0;
    if (!all)
      for (index_t i = left; i < end; ++i) visited[r.perm[static_cast<std::size_t>(i)]] = 1;
    r.permutation_ms += detail::ms_since(t0);
    if (!all && !visited[v])
      throw std::invalid_argument("rcm_gpu: start node " + std::to_string(root) + " is not in the component of vertex " +
                                  std::to_string(v));
    r.start_nodes.push_back(root);
    ++r.components;
    if (all) break;
  }
  if (given != nullptr && given->size() != static_cast<std::size_t>(r.components))
    throw std::invalid_argument("rcm_gpu: " + std::to_string(given->size()) + " start nodes for " +
                                std::to_string(r.components) + " components");
  if (left != 0)
    throw std::logic_error("rcm_gpu: the searches ordered " + std::to_string(n - left) + " of " + std::to_string(n) +
                           " vertices");
  return r;
}

// Runs drive_rcm on an engine whose set-up took r.setup_ms and fills what the engines'
// results share (RcmGpuResult): the permutation, its statistics and the times.
template <class Engine, class Result>
void drive_into(Engine& e, index_t n, const std::vector<index_t>& start_nodes, Result& r) {
  DriverResult d = drive_rcm(e, n, start_nodes.empty() ? nullptr : &start_nodes);
  r.perm = std::move(d.perm);
  r.start_nodes = std::move(d.start_nodes);
  r.components = d.components;
  r.isolated = d.isolated;
  r.cm_levels = d.cm_levels;
  r.bfs_count = d.bfs_count;
  r.two_pass_sort = e.two_pass_used();
  r.start_ms = d.start_ms;
  r.permutation_ms = d.permutation_ms;
  r.total_ms = r.setup_ms + r.start_ms + r.permutation_ms;
}

}  // namespace apiary::rcm
