// Union-find over vertex indices whose root is always the smallest vertex of its set,
// so sets come out numbered by their smallest vertex in one ascending pass. Internal
// to the sparse library (components, generators).
//
// Several threads may unite and find at once (weakly_connected_components does): a
// root is linked only below a smaller root, and only while it is still a root (a
// compare-and-swap), so no cycle can form and the roots stay the sets' smallest
// vertices whatever the interleaving; path halving only ever points a vertex at one of
// its ancestors, which stays an ancestor. The accesses are relaxed atomics: plain loads
// and stores on x86, so one thread pays nothing for it.
#pragma once

#include <atomic>
#include <numeric>
#include <utility>
#include <vector>

#include "sparse/formats.hpp"

namespace apiary::sparse {

class MinRootForest {
 public:
  explicit MinRootForest(index_t n) : parent_(static_cast<std::size_t>(n)) {
    std::iota(parent_.begin(), parent_.end(), index_t{0});
  }

  index_t find(index_t v) {
    // Path halving keeps the trees shallow without a second pass or recursion.
    for (;;) {
      const index_t p = at(v).load(std::memory_order_relaxed);
      if (p == v) return v;
      const index_t g = at(p).load(std::memory_order_relaxed);
      if (g != p) at(v).store(g, std::memory_order_relaxed);
      v = g;
    }
  }

  void unite(index_t u, index_t v) {
    for (;;) {
      u = find(u);
      v = find(v);
      if (u == v) return;
      if (u < v) std::swap(u, v);  // link the larger root below the smaller
      index_t expected = u;
      if (at(u).compare_exchange_strong(expected, v, std::memory_order_relaxed)) return;
      // u was linked by another thread meanwhile: again from its new root.
    }
  }

 private:
  std::atomic_ref<index_t> at(index_t v) { return std::atomic_ref<index_t>(parent_[static_cast<std::size_t>(v)]); }

  std::vector<index_t> parent_;
};

}  // namespace apiary::sparse
