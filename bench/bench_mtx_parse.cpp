// Matrix Market parsing throughput: parse_matrix_market against the obvious istream
// parser, on the same in-memory text (a 2D 5-point Laplacian, general real coordinate).
//
// Usage: bench_mtx_parse [grid side n]   (default 1000: 5M entries, ~100 MB of text)
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "sparse/formats.hpp"
#include "sparse/matrix_market.hpp"

namespace {

using apiary::sparse::Coo;
using apiary::sparse::Csr;
using apiary::sparse::index_t;

// Rows in grid order, columns ascending within a row (south, west, centre, east, north).
Csr<double> laplacian_2d(index_t n) {
  Csr<double> a;
  a.rows = a.cols = n * n;
  a.row_ptr.reserve(static_cast<std::size_t>(a.rows) + 1);
  a.col.reserve(static_cast<std::size_t>(a.rows) * 5);
  a.val.reserve(static_cast<std::size_t>(a.rows) * 5);
  for (index_t y = 0; y < n; ++y)
    for (index_t x = 0; x < n; ++x) {
      const index_t r = y * n + x;
      auto add = [&](index_t c, double v) {
        a.col.push_back(c);
        a.val.push_back(v);
      };
      if (y > 0) add(r - n, -1.0);
      if (x > 0) add(r - 1, -1.0);
      add(r, 4.0);
      if (x + 1 < n) add(r + 1, -1.0);
      if (y + 1 < n) add(r + n, -1.0);
      a.row_ptr.push_back(static_cast<index_t>(a.col.size()));
    }
  return a;
}

// What one would write without thinking about speed; comments only before the size line.
Coo<double> parse_with_istream(std::istringstream& in) {
  std::string line;
  std::getline(in, line);  // banner
  while (in.peek() == '%') std::getline(in, line);
  std::int64_t rows = 0, cols = 0, nnz = 0;
  in >> rows >> cols >> nnz;
  Coo<double> a;
  a.rows = static_cast<index_t>(rows);
  a.cols = static_cast<index_t>(cols);
  a.row.reserve(static_cast<std::size_t>(nnz));
  a.col.reserve(static_cast<std::size_t>(nnz));
  a.val.reserve(static_cast<std::size_t>(nnz));
  for (std::int64_t k = 0; k < nnz; ++k) {
    index_t i = 0, j = 0;
    double v = 0;
    if (!(in >> i >> j >> v)) {
      std::fprintf(stderr, "baseline parser failed at entry %lld\n", static_cast<long long>(k));
      std::exit(1);
    }
    a.push_back(i - 1, j - 1, v);
  }
  return a;
}

template <class Setup, class Run>
double median_seconds(int runs, Setup setup, Run run) {
  std::vector<double> times;
  for (int r = 0; r < runs; ++r) {
    auto state = setup();
    const auto t0 = std::chrono::steady_clock::now();
    run(state);
    const auto t1 = std::chrono::steady_clock::now();
    times.push_back(std::chrono::duration<double>(t1 - t0).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const long side = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 1000;
  if (side < 2 || side > 20000) {
    std::fprintf(stderr, "usage: %s [grid side n, 2..20000]\n", argv[0]);
    return 2;
  }
  const std::string text =
      apiary::sparse::format_matrix_market(laplacian_2d(static_cast<index_t>(side)));
  const double mb = static_cast<double>(text.size()) / 1e6;
  constexpr int runs = 3;

  std::size_t fast_nnz = 0;
  const double fast = median_seconds(
      runs, [] { return 0; },
      [&](int) {
        const auto m = apiary::sparse::parse_matrix_market<double>(text, "laplacian");
        fast_nnz = m.coo.nnz();
      });

  std::size_t slow_nnz = 0;
  // The stream's copy of the text is made outside the timed region.
  const double slow = median_seconds(
      runs, [&] { return std::istringstream(text); },
      [&](std::istringstream& in) { slow_nnz = parse_with_istream(in).nnz(); });

  if (fast_nnz != slow_nnz) {
    std::fprintf(stderr, "parsers disagree: %zu vs %zu entries\n", fast_nnz, slow_nnz);
    return 1;
  }
  std::printf(
      "parse_matrix_market: %.1f MB/s (%.1f MB in %.3f s)  baseline istream: %.1f MB/s  "
      "ratio %.1fx\n",
      mb / fast, mb, fast, mb / slow, slow / fast);
  return 0;
}
