// Union-find over vertex indices whose root is always the smallest vertex of its set,
// so sets come out numbered by their smallest vertex in one ascending pass. Internal
// to the sparse library (components, generators).
#pragma once

#include <numeric>
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
    while (parent_[v] != v) {
      parent_[v] = parent_[parent_[v]];
      v = parent_[v];
    }
    return v;
  }

  void unite(index_t u, index_t v) {
    u = find(u);
    v = find(v);
    if (u == v) return;
    if (u < v)
      parent_[v] = u;
    else
      parent_[u] = v;
  }

 private:
  std::vector<index_t> parent_;
};

}  // namespace apiary::sparse
