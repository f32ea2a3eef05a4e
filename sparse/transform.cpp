#include "sparse/transform.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "sparse/convert.hpp"

namespace apiary::sparse {
namespace {

template <class T>
void check_square(const Csr<T>& a, const char* what) {
  if (!a.is_square())
    throw std::invalid_argument(std::string(what) + ": the matrix must be square, got " +
                                std::to_string(a.rows) + " x " + std::to_string(a.cols));
}

void check_permutation(std::span<const index_t> perm, std::size_t expected, const char* what) {
  if (perm.size() != expected)
    throw std::invalid_argument(std::string(what) + ": permutation has " +
                                std::to_string(perm.size()) + " entries, expected " +
                                std::to_string(expected));
  if (!is_permutation(perm))
    throw std::invalid_argument(std::string(what) +
                                ": not a permutation (an index is repeated or out of range)");
}

// The arrays of a hand-built CSR can be anything; catch inconsistencies before they
// turn into out-of-bounds accesses.
template <class T>
void check_arrays(const Csr<T>& a) {
  const auto fail = [](const std::string& why) {
    throw std::invalid_argument("sort_rows: malformed CSR: " + why);
  };
  if (a.rows < 0 || a.cols < 0) fail("negative dimension");
  if (a.row_ptr.size() != static_cast<std::size_t>(a.rows) + 1)
    fail("row_ptr has " + std::to_string(a.row_ptr.size()) +
         " entries, expected rows + 1 = " + std::to_string(static_cast<std::int64_t>(a.rows) + 1));
  if (a.col.size() != a.val.size())
    fail("col has " + std::to_string(a.col.size()) + " entries but val has " +
         std::to_string(a.val.size()));
  if (a.row_ptr.front() != 0) fail("row_ptr[0] is not 0");
  for (index_t r = 0; r < a.rows; ++r)
    if (a.row_ptr[r + 1] < a.row_ptr[r]) fail("row_ptr decreases at row " + std::to_string(r));
  if (static_cast<std::size_t>(a.row_ptr.back()) != a.col.size())
    fail("row_ptr[rows] = " + std::to_string(a.row_ptr.back()) + " but there are " +
         std::to_string(a.col.size()) + " entries");
  for (std::size_t k = 0; k < a.col.size(); ++k)
    if (a.col[k] < 0 || a.col[k] >= a.cols)
      fail("column index " + std::to_string(a.col[k]) + " outside [0, " + std::to_string(a.cols) +
           ")");
}

// Row pointers are index_t, so a result that grows past the index range must be
// refused before the cast wraps around.
template <class T>
index_t checked_end(const Csr<T>& out, const char* what) {
  if (out.col.size() > static_cast<std::size_t>(std::numeric_limits<index_t>::max()))
    check_fits_index(out.rows, out.cols, static_cast<std::int64_t>(out.col.size()), what);
  return static_cast<index_t>(out.col.size());
}

template <class T>
Csr<T> triangle(const Csr<T>& a, Diagonal d, T fill, bool lower) {
  Csr<T> out;
  out.rows = a.rows;
  out.cols = a.cols;
  out.row_ptr.assign(static_cast<std::size_t>(a.rows) + 1, 0);
  const index_t diag_rows = std::min(a.rows, a.cols);
  // Upper bound: every stored entry plus one inserted diagonal per row.
  out.col.reserve(a.nnz() + static_cast<std::size_t>(diag_rows));
  out.val.reserve(a.nnz() + static_cast<std::size_t>(diag_rows));
  for (index_t r = 0; r < a.rows; ++r) {
    const index_t begin = a.row_ptr[r];
    const index_t end = a.row_ptr[r + 1];
    // Rows are sorted, so the strict-triangle part and the diagonal are contiguous.
    const index_t* cols = a.col.data();
    const index_t split =
        static_cast<index_t>(std::lower_bound(cols + begin, cols + end, r) - cols);
    const bool has_diag = split < end && a.col[split] == r;
    const auto emit_diag = [&] {
      if (r >= diag_rows) return;
      switch (d) {
        case Diagonal::keep:
          if (has_diag) {
            out.col.push_back(r);
            out.val.push_back(a.val[split]);
          }
          break;
        case Diagonal::drop:
          break;
        case Diagonal::unit:
          out.col.push_back(r);
          out.val.push_back(T(1));
          break;
        case Diagonal::add_missing:
          out.col.push_back(r);
          out.val.push_back(has_diag ? a.val[split] : fill);
          break;
      }
    };
    if (lower) {
      out.col.insert(out.col.end(), a.col.begin() + begin, a.col.begin() + split);
      out.val.insert(out.val.end(), a.val.begin() + begin, a.val.begin() + split);
      emit_diag();
    } else {
      emit_diag();
      const index_t after = has_diag ? split + 1 : split;
      out.col.insert(out.col.end(), a.col.begin() + after, a.col.begin() + end);
      out.val.insert(out.val.end(), a.val.begin() + after, a.val.begin() + end);
    }
    out.row_ptr[r + 1] = checked_end(out, lower ? "lower_triangle" : "upper_triangle");
  }
  return out;
}

}  // namespace

template <class T>
Csr<T> sort_rows(Csr<T> a) {
  check_arrays(a);
  std::vector<std::pair<index_t, T>> buf;
  const auto by_col = [](const auto& x, const auto& y) { return x.first < y.first; };
  index_t w = 0;  // compaction never writes past the read position, so it works in place
  index_t begin = 0;
  for (index_t r = 0; r < a.rows; ++r) {
    const index_t end = a.row_ptr[r + 1];
    const index_t row_start = w;
    const auto emit = [&](index_t c, T v) {
      if (w > row_start && a.col[w - 1] == c) {
        a.val[w - 1] += v;
      } else {
        a.col[w] = c;
        a.val[w] = v;
        ++w;
      }
    };
    if (std::is_sorted(a.col.begin() + begin, a.col.begin() + end)) {
      for (index_t k = begin; k < end; ++k) emit(a.col[k], a.val[k]);
    } else {
      buf.clear();
      for (index_t k = begin; k < end; ++k) buf.emplace_back(a.col[k], a.val[k]);
      // Stable, so duplicates are summed in the order they were stored.
      std::stable_sort(buf.begin(), buf.end(), by_col);
      for (const auto& [c, v] : buf) emit(c, v);
    }
    begin = end;
    a.row_ptr[r + 1] = w;
  }
  a.col.resize(static_cast<std::size_t>(w));
  a.val.resize(static_cast<std::size_t>(w));
  return a;
}

template <class T>
Csr<T> symmetrize_pattern(const Csr<T>& a) {
  check_square(a, "symmetrize_pattern");
  const Csr<T> t = transpose(a);
  Csr<T> out;
  out.rows = a.rows;
  out.cols = a.cols;
  out.row_ptr.assign(static_cast<std::size_t>(a.rows) + 1, 0);
  out.col.reserve(2 * a.nnz());
  out.val.reserve(2 * a.nnz());
  for (index_t r = 0; r < a.rows; ++r) {
    index_t i = a.row_ptr[r];
    index_t j = t.row_ptr[r];
    const index_t i_end = a.row_ptr[r + 1];
    const index_t j_end = t.row_ptr[r + 1];
    while (i < i_end || j < j_end) {
      if (j == j_end || (i < i_end && a.col[i] <= t.col[j])) {
        if (j < j_end && a.col[i] == t.col[j]) ++j;
        out.col.push_back(a.col[i]);
        out.val.push_back(a.val[i]);
        ++i;
      } else {
        out.col.push_back(t.col[j]);
        out.val.push_back(T(0));
        ++j;
      }
    }
    out.row_ptr[r + 1] = checked_end(out, "symmetrize_pattern");
  }
  return out;
}

template <class T>
bool is_pattern_symmetric(const Csr<T>& a) {
  if (!a.is_square()) return false;
  const Csr<T> t = transpose(a);
  return t.row_ptr == a.row_ptr && t.col == a.col;
}

template <class T>
bool is_symmetric(const Csr<T>& a) {
  if (!a.is_square()) return false;
  const Csr<T> t = transpose(a);
  return t.row_ptr == a.row_ptr && t.col == a.col && t.val == a.val;
}

template <class T>
Csr<T> lower_triangle(const Csr<T>& a, Diagonal d, T fill) {
  return triangle(a, d, fill, true);
}

template <class T>
Csr<T> upper_triangle(const Csr<T>& a, Diagonal d, T fill) {
  return triangle(a, d, fill, false);
}

bool is_permutation(std::span<const index_t> perm) {
  std::vector<char> seen(perm.size(), 0);
  for (index_t p : perm) {
    if (p < 0 || static_cast<std::size_t>(p) >= perm.size() || seen[p]) return false;
    seen[p] = 1;
  }
  return true;
}

std::vector<index_t> inverse_permutation(std::span<const index_t> perm) {
  check_permutation(perm, perm.size(), "inverse_permutation");
  std::vector<index_t> inv(perm.size());
  for (std::size_t i = 0; i < perm.size(); ++i) inv[perm[i]] = static_cast<index_t>(i);
  return inv;
}

template <class T>
Csr<T> permute_symmetric(const Csr<T>& a, std::span<const index_t> perm) {
  check_square(a, "permute_symmetric");
  check_permutation(perm, static_cast<std::size_t>(a.rows), "permute_symmetric");
  const std::vector<index_t> inv = inverse_permutation(perm);
  Csr<T> out;
  out.rows = a.rows;
  out.cols = a.cols;
  out.row_ptr.assign(static_cast<std::size_t>(a.rows) + 1, 0);
  out.col.resize(a.nnz());
  out.val.resize(a.nnz());
  std::vector<std::pair<index_t, T>> buf;
  for (index_t i = 0; i < a.rows; ++i) {
    const index_t src = perm[i];
    buf.clear();
    for (index_t k = a.row_ptr[src]; k < a.row_ptr[src + 1]; ++k)
      buf.emplace_back(inv[a.col[k]], a.val[k]);
    // inv is a bijection, so the renamed columns are still distinct.
    std::sort(buf.begin(), buf.end(),
              [](const auto& x, const auto& y) { return x.first < y.first; });
    index_t w = out.row_ptr[i];
    for (const auto& [c, v] : buf) {
      out.col[w] = c;
      out.val[w] = v;
      ++w;
    }
    out.row_ptr[i + 1] = w;
  }
  return out;
}

template <class T>
Csr<T> permute_rows(const Csr<T>& a, std::span<const index_t> perm) {
  check_permutation(perm, static_cast<std::size_t>(a.rows), "permute_rows");
  Csr<T> out;
  out.rows = a.rows;
  out.cols = a.cols;
  out.row_ptr.assign(static_cast<std::size_t>(a.rows) + 1, 0);
  out.col.reserve(a.nnz());
  out.val.reserve(a.nnz());
  for (index_t i = 0; i < a.rows; ++i) {
    const index_t src = perm[i];
    out.col.insert(out.col.end(), a.col.begin() + a.row_ptr[src],
                   a.col.begin() + a.row_ptr[src + 1]);
    out.val.insert(out.val.end(), a.val.begin() + a.row_ptr[src],
                   a.val.begin() + a.row_ptr[src + 1]);
    out.row_ptr[i + 1] = static_cast<index_t>(out.col.size());
  }
  return out;
}

template <class T>
std::vector<T> permute_vector(std::span<const T> x, std::span<const index_t> perm) {
  check_permutation(perm, x.size(), "permute_vector");
  std::vector<T> y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) y[i] = x[perm[i]];
  return y;
}

template <class T>
Csr<T> dominant_diagonal(Csr<T> a) {
  for (index_t i = 0; i < a.rows; ++i) {
    T sum = 0;
    index_t diag = -1;
    for (index_t k = a.row_begin(i); k < a.row_end(i); ++k) {
      if (a.col[k] == i) {
        diag = k;
      } else {
        sum += std::abs(a.val[k]);
      }
    }
    if (diag >= 0) a.val[diag] = T(1) + sum;
  }
  return a;
}

#define APIARY_TRANSFORM_INSTANTIATE(T)                                       \
  template Csr<T> sort_rows(Csr<T>);                                          \
  template Csr<T> symmetrize_pattern(const Csr<T>&);                          \
  template bool is_pattern_symmetric(const Csr<T>&);                          \
  template bool is_symmetric(const Csr<T>&);                                  \
  template Csr<T> lower_triangle(const Csr<T>&, Diagonal, T);                 \
  template Csr<T> upper_triangle(const Csr<T>&, Diagonal, T);                 \
  template Csr<T> permute_symmetric(const Csr<T>&, std::span<const index_t>); \
  template Csr<T> permute_rows(const Csr<T>&, std::span<const index_t>);      \
  template std::vector<T> permute_vector(std::span<const T>, std::span<const index_t>); \
  template Csr<T> dominant_diagonal(Csr<T>);

APIARY_TRANSFORM_INSTANTIATE(float)
APIARY_TRANSFORM_INSTANTIATE(double)

#undef APIARY_TRANSFORM_INSTANTIATE

}  // namespace apiary::sparse
