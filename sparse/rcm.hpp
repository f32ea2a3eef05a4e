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
#include <vector>

#include "sparse/formats.hpp"

namespace apiary::sparse {

struct PseudoPeripheral {
  index_t node = 0;
  index_t eccentricity = 0;  // levels of the BFS rooted at node, minus 1
  int bfs_count = 0;         // breadth-first searches performed to find it
};

// George–Liu pseudo-peripheral node finder (SPARSPAK's FNROOT): BFS from start; among the
// last level pick the vertex of minimum degree (ties: smallest index) and BFS from it;
// while that BFS is deeper, continue from the new vertex. Returns the last vertex a BFS
// was rooted at: once the eccentricity stops growing the final candidate has the same
// eccentricity as its predecessor and, being of minimum degree, usually a narrower level
// structure. No further BFS is tried when the first level structure is a single level or
// already has as many levels as vertices (nothing deeper exists).
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

// Reverse Cuthill–McKee. Components are taken in order of their smallest vertex; each is
// rooted at pseudo_peripheral_node(a, its smallest vertex). The Cuthill–McKee BFS appends
// the unvisited neighbours of each dequeued vertex in increasing (degree, index). The
// concatenated order of all components is then reversed as a whole, so the component of
// vertex 0 ends up last and each component's root at the end of its block. Isolated
// vertices are one-vertex components. A 0 x 0 matrix gives an empty permutation.
template <class T>
RcmResult rcm(const Csr<T>& a);

// Same ordering from given roots, one per component in component order (components in
// order of their smallest vertex). Lets GPU results be compared from identical starts.
// std::invalid_argument if the count is wrong or a root lies in another component.
template <class T>
RcmResult rcm_from(const Csr<T>& a, std::span<const index_t> start_nodes);

}  // namespace apiary::sparse
