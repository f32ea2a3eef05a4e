// Small builders shared by the sparse tests.
#pragma once

#include <cstddef>
#include <vector>

#include "sparse/convert.hpp"

namespace apiary::sparse::testing {

// Row-major dense values; zeros are not stored.
template <class T = double>
Csr<T> from_dense(index_t rows, index_t cols, const std::vector<double>& v) {
  Coo<T> c;
  c.rows = rows;
  c.cols = cols;
  for (index_t i = 0; i < rows; ++i)
    for (index_t j = 0; j < cols; ++j)
      if (v[static_cast<std::size_t>(i) * cols + j] != 0)
        c.push_back(i, j, static_cast<T>(v[static_cast<std::size_t>(i) * cols + j]));
  return coo_to_csr(c);
}

}  // namespace apiary::sparse::testing
