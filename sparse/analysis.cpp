#include "sparse/analysis.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <future>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "sparse/union_find.hpp"

namespace apiary::sparse {


template <class T>
bool is_triangular(const Csr<T>& a, Triangle t) {
  // Rows are sorted, so only the first (upper) or last (lower) entry of a row can violate.
  for (index_t i = 0; i < a.rows; ++i) {
    if (a.row_length(i) == 0) continue;
    if (t == Triangle::lower ? a.col[a.row_end(i) - 1] > i : a.col[a.row_begin(i)] < i)
      return false;
  }
  return true;
}

template <class T>
std::vector<index_t> missing_diagonals(const Csr<T>& a) {
  std::vector<index_t> missing;
  const index_t n = std::min(a.rows, a.cols);
  for (index_t i = 0; i < n; ++i) {
    const auto first = a.col.begin() + a.row_begin(i);
    const auto last = a.col.begin() + a.row_end(i);
    if (!std::binary_search(first, last, i)) missing.push_back(i);
  }
  return missing;
}

index_t LevelSets::max_width() const {
  return size.empty() ? 0 : *std::max_element(size.begin(), size.end());
}

template <class T>
index_t row_levels(const Csr<T>& a, Triangle t, std::vector<index_t>& level) {
  require_square(a, "level_sets");
  const index_t n = a.rows;
  level.assign(static_cast<std::size_t>(n), 0);
  index_t count = 0;
  // Each row's dependencies are already final when it is visited: lower rows depend on
  // smaller indices, upper rows on larger ones.
  const bool lower = t == Triangle::lower;
  for (index_t step = 0; step < n; ++step) {
    const index_t i = lower ? step : n - 1 - step;
    index_t lv = 0;
    for (index_t k = a.row_begin(i); k < a.row_end(i); ++k) {
      const index_t j = a.col[k];
      if (lower ? j < i : j > i) lv = std::max(lv, level[j] + 1);
    }
    level[i] = lv;
    count = std::max(count, lv + 1);
  }
  return count;
}

template <class T>
LevelSets level_sets(const Csr<T>& a, Triangle t) {
  LevelSets out;
  out.count = row_levels(a, t, out.level);
  const index_t n = a.rows;
  out.size.assign(static_cast<std::size_t>(out.count), 0);
  for (index_t lv : out.level) ++out.size[lv];
  out.level_ptr.assign(static_cast<std::size_t>(out.count) + 1, 0);
  std::partial_sum(out.size.begin(), out.size.end(), out.level_ptr.begin() + 1);
  out.order.resize(static_cast<std::size_t>(n));
  std::vector<index_t> next(out.level_ptr.begin(), out.level_ptr.end() - 1);
  for (index_t i = 0; i < n; ++i) out.order[next[out.level[i]]++] = i;
  return out;
}

template <class T>
Components weakly_connected_components(const Csr<T>& a, unsigned threads) {
  require_square(a, "weakly_connected_components");
  const index_t n = a.rows;
  // Union-find sees each stored entry once, so A^T never has to be built. With several
  // threads, each unites the entries of a range of rows of about equal entry counts
  // (at least 2^16 each, below which a thread's start costs more than its share).
  MinRootForest forest(n);
  auto unite_rows = [&](index_t r0, index_t r1) {
    for (index_t i = r0; i < r1; ++i)
      for (index_t k = a.row_begin(i); k < a.row_end(i); ++k)
        if (a.col[k] != i) forest.unite(i, a.col[k]);
  };
  const std::size_t entries = a.nnz();
  const unsigned most = threads != 0 ? threads : std::max(1u, std::thread::hardware_concurrency());
  const std::size_t ranges = std::clamp<std::size_t>(entries >> 16, 1, most);
  std::vector<std::future<void>> work;
  index_t r0 = 0;
  for (std::size_t r = 1; r <= ranges; ++r) {
    // Range r ends at the first row whose entries start at or past r / ranges of them all.
    const auto share = static_cast<index_t>(entries * r / ranges);
    const auto first = a.row_ptr.begin();
    const index_t r1 = r == ranges ? n : static_cast<index_t>(std::lower_bound(first + r0, first + n, share) - first);
    work.push_back(std::async(r == 1 ? std::launch::deferred : std::launch::async, unite_rows, r0, r1));
    r0 = r1;
  }
  for (auto& w : work) w.get();

  Components out;
  out.label.resize(static_cast<std::size_t>(n));
  for (index_t v = 0; v < n; ++v) {
    const index_t root = forest.find(v);
    if (root == v) {
      out.label[v] = out.count++;
      out.size.push_back(0);
    } else {
      out.label[v] = out.label[root];  // root < v, already labelled
    }
    ++out.size[out.label[v]];
  }
  return out;
}

template <class T>
index_t bandwidth(const Csr<T>& a) {
  index_t bw = 0;
  for (index_t i = 0; i < a.rows; ++i) {
    if (a.row_length(i) == 0) continue;
    bw = std::max(bw, std::abs(i - a.col[a.row_begin(i)]));
    bw = std::max(bw, std::abs(a.col[a.row_end(i) - 1] - i));
  }
  return bw;
}

template <class T>
std::int64_t profile(const Csr<T>& a) {
  std::int64_t sum = 0;
  for (index_t i = 0; i < a.rows; ++i)
    if (a.row_length(i) > 0 && a.col[a.row_begin(i)] < i) sum += i - a.col[a.row_begin(i)];
  return sum;
}

template <class T>
DegreeStats degree_stats(const Csr<T>& a) {
  DegreeStats s;
  if (a.rows == 0) return s;
  s.min = a.row_length(0);
  for (index_t i = 0; i < a.rows; ++i) {
    const index_t len = a.row_length(i);
    s.min = std::min(s.min, len);
    s.max = std::max(s.max, len);
    if (len == 0) ++s.empty_rows;
  }
  s.mean = static_cast<double>(a.nnz()) / a.rows;
  return s;
}

template <class T>
bool is_diagonally_dominant(const Csr<T>& a) {
  require_square(a, "is_diagonally_dominant");
  for (index_t i = 0; i < a.rows; ++i) {
    double diag = 0;
    double off = 0;
    for (index_t k = a.row_begin(i); k < a.row_end(i); ++k) {
      const double v = std::abs(static_cast<double>(a.val[k]));
      if (a.col[k] == i)
        diag = v;
      else
        off += v;
    }
    if (!(diag >= off)) return false;  // written so that NaN fails too
  }
  return true;
}

#define APIARY_INSTANTIATE(T)                                     \
  template bool is_triangular(const Csr<T>&, Triangle);           \
  template std::vector<index_t> missing_diagonals(const Csr<T>&); \
  template LevelSets level_sets(const Csr<T>&, Triangle);         \
  template index_t row_levels(const Csr<T>&, Triangle, std::vector<index_t>&); \
  template Components weakly_connected_components(const Csr<T>&, unsigned); \
  template index_t bandwidth(const Csr<T>&);                      \
  template std::int64_t profile(const Csr<T>&);                   \
  template DegreeStats degree_stats(const Csr<T>&);               \
  template bool is_diagonally_dominant(const Csr<T>&);

APIARY_INSTANTIATE(float)
APIARY_INSTANTIATE(double)
#undef APIARY_INSTANTIATE

}  // namespace apiary::sparse
