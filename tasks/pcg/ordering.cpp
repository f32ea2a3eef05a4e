#include "tasks/pcg/ordering.hpp"

#include <chrono>
#include <numeric>

#include "sparse/rcm.hpp"

namespace apiary::pcg {

std::string_view to_string(Order o) {
  switch (o) {
    case Order::natural: return "natural";
    case Order::rcm: return "rcm";
    case Order::color: return "color";
  }
  return "?";
}

std::optional<Order> parse_order(std::string_view s) {
  for (Order o : kOrders)
    if (s == to_string(o)) return o;
  if (s == "colour") return Order::color;
  return std::nullopt;
}

Coloring greedy_coloring(const Csr<double>& pattern) {
  sparse::require_square(pattern, "greedy_coloring");
  const index_t n = pattern.rows;
  Coloring c;
  c.color.assign(static_cast<std::size_t>(n), -1);
  // used[k] == i: colour k is taken by a neighbour of row i.
  std::vector<index_t> used;
  for (index_t i = 0; i < n; ++i) {
    for (index_t k = pattern.row_begin(i); k < pattern.row_end(i); ++k) {
      const index_t j = pattern.col[k];
      if (j == i || c.color[j] < 0) continue;
      if (static_cast<std::size_t>(c.color[j]) >= used.size()) used.resize(static_cast<std::size_t>(c.color[j]) + 1, -1);
      used[c.color[j]] = i;
    }
    index_t k = 0;
    while (static_cast<std::size_t>(k) < used.size() && used[k] == i) ++k;
    c.color[i] = k;
    c.colors = std::max(c.colors, k + 1);
  }
  // Counting sort by colour, stable: rows by index within a class.
  c.class_ptr.assign(static_cast<std::size_t>(c.colors) + 1, 0);
  for (index_t i = 0; i < n; ++i) ++c.class_ptr[c.color[i] + 1];
  std::partial_sum(c.class_ptr.begin(), c.class_ptr.end(), c.class_ptr.begin());
  std::vector<index_t> next(c.class_ptr.begin(), c.class_ptr.end() - 1);
  c.perm.resize(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) c.perm[next[c.color[i]]++] = i;
  return c;
}

Ordering make_ordering(const Csr<double>& a, Order o) {
  sparse::require_square(a, "make_ordering");
  const auto t0 = std::chrono::steady_clock::now();
  Ordering out;
  out.order = o;
  switch (o) {
    case Order::natural:
      out.perm.resize(static_cast<std::size_t>(a.rows));
      std::iota(out.perm.begin(), out.perm.end(), index_t{0});
      break;
    case Order::rcm:
      out.perm = sparse::rcm(a).perm;
      break;
    case Order::color: {
      Coloring c = greedy_coloring(a);
      out.perm = std::move(c.perm);
      out.colors = c.colors;
      break;
    }
  }
  out.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace apiary::pcg
