// How many threads share one row when a group of threads (a task, a block) computes the
// dot products of several sparse rows at once: the rule of Jacobi's chunks. (The PCG
// task program has its own, pcg::sweep_lanes, for its loop that loads several entries
// per lane at once.) Plain host C++.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>

#include "sparse/formats.hpp"

namespace apiary::sparse {

// Lanes per row for `rows` rows with `entries` entries in all, the longest `longest`,
// on `threads` threads: as many as fit for every row at once, but at least half the
// mean row length (then the threads take several passes over the rows), and not
// beyond the longest row; a power of two from 1 to 32, so a row's lanes sit in one
// warp. Half the mean: with one lane per row, a warp's loads of 19-entry rows touch 32
// cache lines each; with 8 lanes, neighbouring threads read neighbouring entries.
inline std::int32_t lanes_per_row(index_t rows, index_t longest, std::int64_t entries, int threads) {
  rows = std::max<index_t>(rows, 1);
  const auto fit = static_cast<unsigned>(std::max<index_t>(1, threads / rows));
  const auto half_mean = static_cast<unsigned>(std::max<std::int64_t>(1, entries / (2 * std::int64_t{rows})));
  const auto need = std::bit_ceil(static_cast<unsigned>(std::max<index_t>(1, longest)));
  return static_cast<std::int32_t>(std::min({32u, std::max(std::bit_floor(fit), std::bit_floor(half_mean)), need}));
}

}  // namespace apiary::sparse
