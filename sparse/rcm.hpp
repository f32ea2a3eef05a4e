// Serial Reverse Cuthill–McKee ordering.
//
// This is the CPU baseline the GPU RCM is benchmarked against, so it is built for speed:
// flat arrays sized once per call, no per-vertex allocation, and the children of each
// vertex sorted with an insertion sort on packed (degree, index) keys.
//
// Precondition of every function here: a is square with a symmetric pattern (the caller
// symmetrizes, e.g. A + A^T). Only squareness is checked (std::invalid_argument); the
// symmetry check is left out because it would cost as much as the ordering itself, and
// on an unsymmetric pattern the result is still a permutation, just not a meaningful one.
// Diagonal entries (self-loops) are ignored for both degrees and adjacency.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "sparse/formats.hpp"

namespace apiary::sparse {

struct PseudoPeripheral {
  index_t node = 0;
  index_t eccentricity = 0;  // levels of the BFS rooted at node, minus 1
  int bfs_count = 0;         // breadth-first searches performed to find it
};

// George–Liu pseudo-peripheral node finder (George and Liu 1979): BFS from start; among
// the last level pick the vertex of minimum degree (ties: smallest index) and BFS from it;
// while that BFS is deeper, continue from the new vertex. Returns the last root whose BFS
// was deeper than its predecessor's (or start): the candidate that stopped the search has
// the same eccentricity, and keeping the root before it lets the GPU engines order that
// root's levels while the candidate's BFS runs. No further BFS is tried when the first
// level structure is a single level or already has as many levels as vertices (nothing
// deeper exists).
//
// in_component_mask, when not empty, has one entry per vertex and restricts the graph to
// the vertices whose entry is non-zero (degrees count neighbours inside the mask only);
// start must be one of them.
template <class T>
PseudoPeripheral pseudo_peripheral_node(const Csr<T>& a, index_t start,
                                        std::span<const std::uint8_t> in_component_mask = {});

struct RcmResult {
  std::vector<index_t> perm;         // perm[new] = old
  std::vector<index_t> start_nodes;  // BFS root of each component, in component order
  index_t components = 0;
};

// The vertices in increasing (degree, index), handed out as the component loop of an RCM
// asks: next(visited) is the unvisited vertex that comes first, or -1 when none is left.
// The first answer is the `least` vertex the caller found (one pass over the degrees, or
// a reduction on the GPU); only a graph of several components needs the rest, so the
// counting sort over all n degrees runs on the second call. `degree(v)` is called n times
// then, and must be the self-loop-free degree.
template <class Degree>
class LeastDegreeFirst {
 public:
  LeastDegreeFirst(index_t n, index_t least, Degree degree) : n_(n), least_(least), degree_(std::move(degree)) {}

  index_t next(const std::uint8_t* visited) {
    if (!started_) {
      started_ = true;
      if (n_ > 0) return least_;
    }
    if (order_.empty() && n_ > 0) sort();
    while (cursor_ < n_ && visited[order_[static_cast<std::size_t>(cursor_)]]) ++cursor_;
    return cursor_ < n_ ? order_[static_cast<std::size_t>(cursor_)] : -1;
  }

 private:
  void sort() {  // stable counting sort by degree: equal degrees stay in index order
    std::vector<index_t> d(static_cast<std::size_t>(n_));
    index_t most = 0;
    for (index_t v = 0; v < n_; ++v) {
      d[static_cast<std::size_t>(v)] = degree_(v);
      most = d[static_cast<std::size_t>(v)] > most ? d[static_cast<std::size_t>(v)] : most;
    }
    std::vector<index_t> start(static_cast<std::size_t>(most) + 2, 0);
    for (index_t x : d) ++start[static_cast<std::size_t>(x) + 1];
    for (std::size_t i = 1; i < start.size(); ++i) start[i] += start[i - 1];
    order_.resize(static_cast<std::size_t>(n_));
    for (index_t v = 0; v < n_; ++v) order_[static_cast<std::size_t>(start[static_cast<std::size_t>(d[v])]++)] = v;
  }

  index_t n_;
  index_t least_;
  Degree degree_;
  bool started_ = false;
  std::vector<index_t> order_;
  index_t cursor_ = 0;
};

// Reverse Cuthill–McKee. Components are taken in the order of LeastDegreeFirst: next is
// the component of the unvisited vertex of least (degree, index), rooted at
// pseudo_peripheral_node(a, that vertex). Starting the George–Liu search from a vertex of
// least degree (as SciPy and Boost do) usually lands on the periphery at once: on a mesh
// it starts from a corner, and two searches find the pseudo-peripheral node where an
// interior start needs three. Isolated vertices (degree 0) are one-vertex components, and
// come first. The Cuthill–McKee BFS appends the unvisited neighbours of each dequeued
// vertex in increasing (degree, index). The concatenated order of all components is then
// reversed as a whole, so the first component ends up last and each component's root at
// the end of its block. A 0 x 0 matrix gives an empty permutation.
template <class T>
RcmResult rcm(const Csr<T>& a);

// Same ordering from given roots, one per component in component order (the order of
// rcm above). Lets GPU results be compared from identical starts.
// std::invalid_argument if the count is wrong or a root lies in another component.
template <class T>
RcmResult rcm_from(const Csr<T>& a, std::span<const index_t> start_nodes);

}  // namespace apiary::sparse
