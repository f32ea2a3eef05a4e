// The random lower DAGs and n_max values every property test of the analysis runs over.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sparse/generators.hpp"
#include "sparse/transform.hpp"

namespace apiary::sptrsv::testing {

// Calls check(L, n_max, label) for chains, wide levels, many components and dense rows,
// five seeds each, at n_max from 1 to the whole matrix.
template <class Check>
void for_each_random_dag(Check&& check) {
  const std::vector<sparse::DagSpec> specs{{300, 1, 300},     {400, 8, 1},        {500, 40, 1, 0.5},
                                           {600, 15, 4},      {900, 3, 30, 4.0},  {700, 150, 2, 1.0}};
  for (const auto& spec : specs)
    for (std::uint64_t seed : {1u, 2u, 3u, 4u, 5u})
      for (sparse::index_t n_max : {1, 2, 7, 32, 256, spec.rows})
        check(sparse::random_lower_dag<double>(spec, seed), n_max,
              "dag " + std::to_string(spec.rows) + "/" + std::to_string(spec.levels) + "/" +
                  std::to_string(spec.components) + " seed " + std::to_string(seed));
}

// Calls check(L, n_max, label) for the paper's block-diagonal shapes (sparse and dense
// blocks) and a Poisson 2D factor, at n_max from 1 to above the matrix size.
template <class Check>
void for_each_structured_case(Check&& check) {
  for (sparse::index_t n_max : {1, 2, 7, 32, 256, 1200}) {
    check(sparse::block_diagonal_lower<double>(8, 150, 0.05, 4), n_max, "blocks sparse");
    check(sparse::block_diagonal_lower<double>(4, 80, 0.6, 9), n_max, "blocks dense");
    check(sparse::lower_triangle(sparse::poisson2d<double>(40, 30)), n_max, "poisson");
  }
}

}  // namespace apiary::sptrsv::testing
