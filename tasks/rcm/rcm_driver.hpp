// The host-side control of the level-synchronous RCM, written once over an "engine" that
// does the breadth-first work: the device engine (rcm_gpu.cu) and the host emulation
// (rcm_emulation.cpp) share it, so the component loop, the start-node search and the
// argument checks that the GPU runs are the ones the host tests exercise.
//
// An engine offers, each call synchronous (its work is finished when it returns):
//   const std::vector<index_t>& degrees();            // self-loops excluded
//   BfsLevels bfs(index_t root);                        // rooted level structure
//   index_t min_degree_in_last_level();                 // of the last bfs; ties: smallest index
//   index_t cuthill_mckee(index_t root, std::vector<index_t>& order);  // appends, returns levels
#pragma once

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sparse/formats.hpp"

namespace apiary::rcm {

using sparse::index_t;

struct BfsLevels {
  index_t levels = 0;  // non-empty levels
  index_t size = 0;    // vertices reached
};

struct DriverResult {
  std::vector<index_t> perm;  // perm[new] = old
  std::vector<index_t> start_nodes;
  index_t components = 0;
  index_t isolated = 0;     // one-vertex components (no neighbour but itself)
  index_t cm_levels = 0;    // levels of all Cuthill–McKee searches together
  int bfs_count = 0;        // searches of the start-node finder
  double start_ms = 0;      // start-node search
  double permutation_ms = 0;  // Cuthill–McKee searches, sorts and the final reversal
};

namespace detail {
inline double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace detail

// George–Liu pseudo-peripheral node from start, as sparse::pseudo_peripheral_node.
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
    node = best;
    const bool deeper = b.levels > levels;
    levels = b.levels;
    if (!deeper) break;
  }
  return node;
}

// Components in order of their smallest vertex, each rooted at the pseudo-peripheral node
// found from that vertex, or at given[c]; the concatenated Cuthill–McKee order reversed as
// a whole (the convention of sparse::rcm). std::invalid_argument for bad given roots, with
// the messages of sparse::rcm_from.
template <class Engine>
DriverResult drive_rcm(Engine& e, index_t n, const std::vector<index_t>* given) {
  using clock = std::chrono::steady_clock;
  DriverResult r;
  const std::vector<index_t>& degree = e.degrees();
  std::vector<std::uint8_t> visited(static_cast<std::size_t>(n), 0);
  std::vector<index_t> order;
  order.reserve(static_cast<std::size_t>(n));
  for (index_t v = 0; v < n; ++v) {
    if (visited[v]) continue;
    index_t root = v;
    if (given != nullptr) {
      const std::size_t c = static_cast<std::size_t>(r.components);
      if (c >= given->size())
        throw std::invalid_argument("rcm_gpu: " + std::to_string(given->size()) + " start nodes for more components");
      root = (*given)[c];
      if (root < 0 || root >= n || visited[root])
        throw std::invalid_argument("rcm_gpu: start node " + std::to_string(root) + " of component " +
                                    std::to_string(c) + " is out of range or in an earlier component");
    } else if (degree[v] > 0) {
      const auto t0 = clock::now();
      root = find_start_node(e, v, r.bfs_count);
      r.start_ms += detail::ms_since(t0);
    }
    const auto t0 = clock::now();
    const std::size_t first = order.size();
    if (degree[root] == 0) {
      order.push_back(root);  // nobody is adjacent to it: no search needed
      ++r.isolated;
      ++r.cm_levels;
    } else {
      r.cm_levels += e.cuthill_mckee(root, order);
    }
    // Once every vertex is ordered (a connected graph: at once) nothing is left to mark:
    // on a million vertices the marking alone took 2 ms.
    const bool all = order.size() == static_cast<std::size_t>(n);
    if (!all)
      for (std::size_t i = first; i < order.size(); ++i) visited[order[i]] = 1;
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
  if (order.size() != static_cast<std::size_t>(n))
    throw std::logic_error("rcm_gpu: the searches ordered " + std::to_string(order.size()) + " of " +
                           std::to_string(n) + " vertices");
  const auto t0 = clock::now();
  r.perm.assign(order.rbegin(), order.rend());
  r.permutation_ms += detail::ms_since(t0);
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
