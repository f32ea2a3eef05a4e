#include "sparse/rcm.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace apiary::sparse {

namespace {

// Buffers of the level-structure BFS, sized once per call so that the many searches of
// a graph with many components allocate nothing. `seen` is all zero between searches:
// each search clears exactly the vertices it marked, which costs no more than the search
// itself, whereas clearing all n entries per search would make many small components
// quadratic.
struct LevelWork {
  std::vector<index_t> ls;           // vertices in BFS order
  std::vector<index_t> level_start;  // offsets into ls, levels + 1 entries
  std::vector<std::uint8_t> seen;

  explicit LevelWork(index_t n)
      : ls(static_cast<std::size_t>(n)), seen(static_cast<std::size_t>(n), 0) {}
  index_t levels() const { return static_cast<index_t>(level_start.size()) - 1; }
  index_t size() const { return level_start.back(); }
};

// Rooted level structure of root's component (restricted to mask when non-null).
template <class T>
void rooted_levels(const Csr<T>& a, index_t root, const std::uint8_t* mask, LevelWork& w) {
  const index_t* ptr = a.row_ptr.data();
  const index_t* col = a.col.data();
  index_t* ls = w.ls.data();
  std::uint8_t* seen = w.seen.data();
  w.level_start.clear();
  ls[0] = root;
  seen[root] = 1;
  index_t head = 0;
  index_t tail = 1;
  while (head < tail) {
    w.level_start.push_back(head);
    const index_t level_end = tail;
    for (; head < level_end; ++head) {
      const index_t u = ls[head];
      for (index_t k = ptr[u]; k < ptr[u + 1]; ++k) {
        const index_t v = col[k];
        if (!seen[v] && (mask == nullptr || mask[v])) {
          seen[v] = 1;
          ls[tail++] = v;
        }
      }
    }
  }
  w.level_start.push_back(tail);
  for (index_t i = 0; i < tail; ++i) seen[ls[i]] = 0;
}

template <class T>
index_t masked_degree(const Csr<T>& a, index_t v, const std::uint8_t* mask) {
  index_t d = 0;
  for (index_t k = a.row_begin(v); k < a.row_end(v); ++k) {
    const index_t u = a.col[k];
    d += u != v && (mask == nullptr || mask[u]);
  }
  return d;
}

template <class T>
PseudoPeripheral find_pseudo_peripheral(const Csr<T>& a, index_t start, const std::uint8_t* mask,
                                        LevelWork& w) {
  PseudoPeripheral r;
  r.node = start;
  rooted_levels(a, start, mask, w);
  r.bfs_count = 1;
  index_t levels = w.levels();
  r.eccentricity = levels - 1;
  const index_t size = w.size();
  while (levels > 1 && levels < size) {
    index_t best = -1;
    index_t best_degree = std::numeric_limits<index_t>::max();
    for (index_t i = w.level_start[levels - 1]; i < w.level_start[levels]; ++i) {
      const index_t v = w.ls[i];
      const index_t d = masked_degree(a, v, mask);
      if (d < best_degree || (d == best_degree && v < best)) {
        best = v;
        best_degree = d;
      }
    }
    rooted_levels(a, best, mask, w);
    ++r.bfs_count;
    // ecc(best) >= dist(best, root) = ecc(root), so "not deeper" means equal, and the
    // root stays: its BFS is the one before, which a GPU can order while this one runs.
    if (w.levels() <= levels) break;
    r.node = best;
    levels = w.levels();
    r.eccentricity = levels - 1;
  }
  return r;
}

// Sorts vertices by (degree, index). Keys pack the degree above the index so a single
// integer comparison orders them; most lists are a handful of vertices, where insertion
// sort beats std::sort's setup.
void sort_by_degree(index_t* v, index_t m, const index_t* degree, std::uint64_t* keys) {
  for (index_t i = 0; i < m; ++i)
    keys[i] = static_cast<std::uint64_t>(static_cast<std::uint32_t>(degree[v[i]])) << 32 |
              static_cast<std::uint32_t>(v[i]);
  constexpr index_t insertion_limit = 24;
  if (m <= insertion_limit) {
    for (index_t i = 1; i < m; ++i) {
      const std::uint64_t key = keys[i];
      index_t j = i;
      for (; j > 0 && keys[j - 1] > key; --j) keys[j] = keys[j - 1];
      keys[j] = key;
    }
  } else {
    std::sort(keys, keys + m);
  }
  for (index_t i = 0; i < m; ++i) v[i] = static_cast<index_t>(keys[i] & 0xffffffffu);
}

// Appends the Cuthill–McKee order of root's component to order[tail...]; returns the
// new tail. The order array doubles as the BFS queue.
template <class T>
index_t cuthill_mckee(const Csr<T>& a, index_t root, const index_t* degree, std::uint8_t* visited,
                      index_t* order, index_t tail, std::uint64_t* keys) {
  const index_t* ptr = a.row_ptr.data();
  const index_t* col = a.col.data();
  index_t head = tail;
  visited[root] = 1;
  order[tail++] = root;
  while (head < tail) {
    const index_t u = order[head++];
    const index_t first = tail;
    // u itself is already visited, which is what drops self-loops here.
    for (index_t k = ptr[u]; k < ptr[u + 1]; ++k) {
      const index_t v = col[k];
      if (!visited[v]) {
        visited[v] = 1;
        order[tail++] = v;
      }
    }
    if (tail - first > 1) sort_by_degree(order + first, tail - first, degree, keys);
  }
  return tail;
}

template <class T>
RcmResult rcm_impl(const Csr<T>& a, const std::span<const index_t>* given, const char* what) {
  require_square(a, what);
  const index_t n = a.rows;
  RcmResult r;
  if (n == 0) {
    if (given != nullptr && !given->empty())
      throw std::invalid_argument(std::string(what) + ": start nodes given for an empty matrix");
    return r;
  }

  const index_t* ptr = a.row_ptr.data();
  const index_t* col = a.col.data();
  std::vector<index_t> degree(static_cast<std::size_t>(n));
  index_t max_degree = 0;
  for (index_t v = 0; v < n; ++v) {
    index_t d = ptr[v + 1] - ptr[v];
    for (index_t k = ptr[v]; k < ptr[v + 1]; ++k) d -= col[k] == v;
    degree[v] = d;
    max_degree = std::max(max_degree, d);
  }

  std::vector<std::uint8_t> visited(static_cast<std::size_t>(n), 0);
  std::vector<index_t> order(static_cast<std::size_t>(n));
  std::vector<std::uint64_t> keys(static_cast<std::size_t>(max_degree) + 1);
  LevelWork work(given == nullptr ? n : 0);
  index_t least = 0;
  for (index_t v = 1; v < n; ++v) least = degree[v] < degree[least] ? v : least;
  LeastDegreeFirst next(n, least, [&](index_t v) { return degree[v]; });
  index_t tail = 0;
  for (index_t v = next.next(visited.data()); v >= 0; v = next.next(visited.data())) {
    index_t root = v;  // v is the vertex of least (degree, index) of a new component
    if (given != nullptr) {
      const std::size_t c = static_cast<std::size_t>(r.components);
      if (c >= given->size())
        throw std::invalid_argument(std::string(what) + ": " + std::to_string(given->size()) +
                                    " start nodes for more components");
      root = (*given)[c];
      if (root < 0 || root >= n || visited[root])
        throw std::invalid_argument(std::string(what) + ": start node " + std::to_string(root) +
                                    " of component " + std::to_string(c) +
                                    " is out of range or in an earlier component");
    } else if (degree[v] > 0) {
      root = find_pseudo_peripheral(a, v, nullptr, work).node;
    }
    tail = cuthill_mckee(a, root, degree.data(), visited.data(), order.data(), tail, keys.data());
    if (!visited[v])
      throw std::invalid_argument(std::string(what) + ": start node " + std::to_string(root) +
                                  " is not in the component of vertex " + std::to_string(v));
    r.start_nodes.push_back(root);
    ++r.components;
    if (tail == n) break;  // a connected graph: no counting sort for a next component
  }
  if (given != nullptr && given->size() != static_cast<std::size_t>(r.components))
    throw std::invalid_argument(std::string(what) + ": " + std::to_string(given->size()) +
                                " start nodes for " + std::to_string(r.components) + " components");

  // The whole concatenation is reversed, not each component in place: the bandwidth is
  // the same either way, and one fixed convention is what the GPU ordering must reproduce.
  r.perm.assign(order.rbegin(), order.rend());
  return r;
}

}  // namespace

template <class T>
PseudoPeripheral pseudo_peripheral_node(const Csr<T>& a, index_t start,
                                        std::span<const std::uint8_t> in_component_mask) {
  require_square(a, "pseudo_peripheral_node");
  const index_t n = a.rows;
  if (start < 0 || start >= n)
    throw std::invalid_argument("pseudo_peripheral_node: start " + std::to_string(start) +
                                " outside 0.." + std::to_string(n - 1));
  const std::uint8_t* mask = nullptr;
  if (!in_component_mask.empty()) {
    if (in_component_mask.size() != static_cast<std::size_t>(n))
      throw std::invalid_argument("pseudo_peripheral_node: mask has " +
                                  std::to_string(in_component_mask.size()) + " entries, expected " +
                                  std::to_string(n));
    if (!in_component_mask[start])
      throw std::invalid_argument("pseudo_peripheral_node: start " + std::to_string(start) +
                                  " is outside the mask");
    mask = in_component_mask.data();
  }
  LevelWork work(n);
  return find_pseudo_peripheral(a, start, mask, work);
}

template <class T>
RcmResult rcm(const Csr<T>& a) {
  return rcm_impl(a, nullptr, "rcm");
}

template <class T>
RcmResult rcm_from(const Csr<T>& a, std::span<const index_t> start_nodes) {
  return rcm_impl(a, &start_nodes, "rcm_from");
}

#define APIARY_INSTANTIATE(T)                                                      \
  template PseudoPeripheral pseudo_peripheral_node(const Csr<T>&, index_t,         \
                                                   std::span<const std::uint8_t>); \
  template RcmResult rcm(const Csr<T>&);                                           \
  template RcmResult rcm_from(const Csr<T>&, std::span<const index_t>);

APIARY_INSTANTIATE(float)
APIARY_INSTANTIATE(double)
#undef APIARY_INSTANTIATE

}  // namespace apiary::sparse
