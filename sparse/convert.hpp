// Conversions between COO, CSR and CSC, and transposition.
//
// coo_to_csr sorts and sums duplicate entries: Matrix Market files may repeat an
// entry, and the convention of this library (documented in docs/sparse.md) is that
// repeated entries add up, as in MATLAB's sparse() and SciPy's tocsr().
#pragma once

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <utility>

#include "sparse/formats.hpp"

namespace apiary::sparse {

// Counting sort by row, then by column inside each row; duplicates are summed.
template <class T>
Csr<T> coo_to_csr(const Coo<T>& a) {
  check_fits_index(a.rows, a.cols, static_cast<std::int64_t>(a.nnz()), "coo_to_csr");
  const std::size_t n = a.nnz();
  Csr<T> out;
  out.rows = a.rows;
  out.cols = a.cols;
  std::vector<index_t> ptr(static_cast<std::size_t>(a.rows) + 1, 0);
  for (std::size_t k = 0; k < n; ++k) {
    if (a.row[k] < 0 || a.row[k] >= a.rows || a.col[k] < 0 || a.col[k] >= a.cols)
      throw std::out_of_range("coo_to_csr: entry (" + std::to_string(a.row[k]) + ", " +
                              std::to_string(a.col[k]) + ") outside the " +
                              std::to_string(a.rows) + " x " + std::to_string(a.cols) + " matrix");
    ++ptr[a.row[k] + 1];
  }
  std::partial_sum(ptr.begin(), ptr.end(), ptr.begin());
  std::vector<index_t> col(n);
  std::vector<T> val(n);
  {
    std::vector<index_t> next(ptr.begin(), ptr.end() - 1);
    for (std::size_t k = 0; k < n; ++k) {
      const index_t dst = next[a.row[k]]++;
      col[dst] = a.col[k];
      val[dst] = a.val[k];
    }
  }
  // Sort each row by column and sum duplicates, compacting in place.
  out.row_ptr.assign(static_cast<std::size_t>(a.rows) + 1, 0);
  out.col.reserve(n);
  out.val.reserve(n);
  std::vector<std::pair<index_t, T>> row_buf;
  for (index_t r = 0; r < a.rows; ++r) {
    row_buf.clear();
    for (index_t k = ptr[r]; k < ptr[r + 1]; ++k) row_buf.emplace_back(col[k], val[k]);
    if (!std::is_sorted(row_buf.begin(), row_buf.end(),
                        [](const auto& x, const auto& y) { return x.first < y.first; }))
      std::stable_sort(row_buf.begin(), row_buf.end(),
                       [](const auto& x, const auto& y) { return x.first < y.first; });
    for (std::size_t k = 0; k < row_buf.size(); ++k) {
      if (k > 0 && row_buf[k].first == row_buf[k - 1].first) {
        out.val.back() += row_buf[k].second;
      } else {
        out.col.push_back(row_buf[k].first);
        out.val.push_back(row_buf[k].second);
      }
    }
    out.row_ptr[r + 1] = static_cast<index_t>(out.col.size());
  }
  return out;
}

template <class T>
Coo<T> csr_to_coo(const Csr<T>& a) {
  Coo<T> out;
  out.rows = a.rows;
  out.cols = a.cols;
  out.row.reserve(a.nnz());
  for (index_t r = 0; r < a.rows; ++r)
    for (index_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) out.row.push_back(r);
  out.col = a.col;
  out.val = a.val;
  return out;
}

// Transpose by counting sort on the column index; rows of the result come out sorted
// because the source rows are visited in order.
template <class T>
Csr<T> transpose(const Csr<T>& a) {
  Csr<T> t;
  t.rows = a.cols;
  t.cols = a.rows;
  t.row_ptr.assign(static_cast<std::size_t>(a.cols) + 1, 0);
  for (index_t c : a.col) ++t.row_ptr[c + 1];
  std::partial_sum(t.row_ptr.begin(), t.row_ptr.end(), t.row_ptr.begin());
  t.col.resize(a.nnz());
  t.val.resize(a.nnz());
  std::vector<index_t> next(t.row_ptr.begin(), t.row_ptr.end() - 1);
  for (index_t r = 0; r < a.rows; ++r)
    for (index_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) {
      const index_t dst = next[a.col[k]]++;
      t.col[dst] = r;
      t.val[dst] = a.val[k];
    }
  return t;
}

// CSC of A is the CSR of A^T reinterpreted.
template <class T>
Csc<T> csr_to_csc(const Csr<T>& a) {
  Csr<T> t = transpose(a);
  Csc<T> out;
  out.rows = a.rows;
  out.cols = a.cols;
  out.col_ptr = std::move(t.row_ptr);
  out.row = std::move(t.col);
  out.val = std::move(t.val);
  return out;
}

template <class T>
Csr<T> csc_to_csr(const Csc<T>& a) {
  Csr<T> as_rows;  // the CSR of A^T
  as_rows.rows = a.cols;
  as_rows.cols = a.rows;
  as_rows.row_ptr = a.col_ptr;
  as_rows.col = a.row;
  as_rows.val = a.val;
  return transpose(as_rows);
}

}  // namespace apiary::sparse
