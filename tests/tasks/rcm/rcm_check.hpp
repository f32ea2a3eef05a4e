// The oracle of the RCM tests: sparse::rcm / rcm_from on the symmetrized pattern, and the
// comparison of a result with it.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "sparse/analysis.hpp"
#include "sparse/rcm.hpp"
#include "sparse/transform.hpp"
#include "tasks/rcm/rcm_driver.hpp"
#include "tasks/rcm/rcm_gpu.hpp"

namespace apiary::rcm::testing {

inline sparse::Csr<double> symmetric_pattern(const sparse::Csr<double>& a) {
  return sparse::is_pattern_symmetric(a) ? a : sparse::symmetrize_pattern(a);
}

// The smallest vertex of each component, in component order (sparse::rcm's: by the
// least (degree, index) of their vertices): roots other than the pseudo-peripheral ones,
// for rcm_from comparisons.
inline std::vector<sparse::index_t> smallest_vertices(const sparse::Csr<double>& sym) {
  using sparse::index_t;
  const sparse::Components c = sparse::weakly_connected_components(sym);
  std::vector<index_t> first(static_cast<std::size_t>(c.count), -1);
  std::vector<std::pair<index_t, index_t>> least(static_cast<std::size_t>(c.count), {sym.rows, sym.rows});
  for (index_t v = static_cast<index_t>(c.label.size()) - 1; v >= 0; --v) {
    first[c.label[v]] = v;
    least[c.label[v]] = std::min(least[c.label[v]], std::pair{degree_without_loops(sym, v), v});
  }
  std::vector<index_t> component(static_cast<std::size_t>(c.count));
  std::iota(component.begin(), component.end(), index_t{0});
  std::sort(component.begin(), component.end(), [&](index_t x, index_t y) { return least[x] < least[y]; });
  std::vector<index_t> roots;
  for (index_t x : component) roots.push_back(first[x]);
  return roots;
}

// Identical permutation, start nodes and components; bandwidth and profile follow, but
// are compared too so that a failure message says how far off a wrong order is.
inline void expect_same_as_reference(const RcmGpuResult& r, const sparse::RcmResult& ref,
                                     const sparse::Csr<double>& sym, const std::string& name) {
  SCOPED_TRACE(name);
  ASSERT_TRUE(sparse::is_permutation(r.perm));
  ASSERT_EQ(r.perm.size(), ref.perm.size());
  EXPECT_EQ(r.components, ref.components);
  EXPECT_EQ(r.start_nodes, ref.start_nodes);
  EXPECT_EQ(r.perm, ref.perm);
  if (r.perm != ref.perm && sym.rows > 0) {
    const auto got = sparse::permute_symmetric(sym, r.perm);
    const auto want = sparse::permute_symmetric(sym, ref.perm);
    EXPECT_EQ(sparse::bandwidth(got), sparse::bandwidth(want));
    EXPECT_EQ(sparse::profile(got), sparse::profile(want));
  }
}

}  // namespace apiary::rcm::testing
