// Graphs the RCM tests order (host emulation and GPU), each with a name for messages.
#pragma once

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "sparse/convert.hpp"
#include "sparse/formats.hpp"
#include "sparse/generators.hpp"
#include "sparse/matrix_market.hpp"
#include "sparse/transform.hpp"

namespace apiary::rcm::testing {

using sparse::Csr;
using sparse::index_t;

struct Case {
  std::string name;
  Csr<double> a;
};

// Symmetric pattern of n vertices with the given undirected edges; diagonal only where
// asked (loops), so isolated vertices have empty rows.
inline Csr<double> graph(index_t n, const std::vector<std::pair<index_t, index_t>>& edges,
                         const std::vector<index_t>& loops = {}, bool symmetric = true) {
  sparse::Coo<double> coo;
  coo.rows = coo.cols = n;
  for (auto [i, j] : edges) {
    coo.push_back(i, j, 1.0);
    if (symmetric) coo.push_back(j, i, 1.0);
  }
  for (index_t v : loops) coo.push_back(v, v, 2.0);
  return sparse::coo_to_csr(coo);
}

inline std::vector<std::pair<index_t, index_t>> path_edges(index_t n, index_t offset = 0) {
  std::vector<std::pair<index_t, index_t>> e;
  for (index_t i = 1; i < n; ++i) e.emplace_back(offset + i - 1, offset + i);
  return e;
}

inline std::vector<index_t> random_permutation(index_t n, std::uint64_t seed) {
  std::vector<index_t> p(static_cast<std::size_t>(n));
  std::iota(p.begin(), p.end(), 0);
  std::mt19937_64 rng(seed);
  std::shuffle(p.begin(), p.end(), rng);
  return p;
}

inline Csr<double> scrambled(const Csr<double>& a, std::uint64_t seed) {
  const auto p = random_permutation(a.rows, seed);
  return sparse::permute_symmetric(a, p);
}

// Random graph of n vertices and about m undirected edges (many small components when
// m is below n).
inline Csr<double> random_graph(index_t n, index_t m, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<index_t> pick(0, n - 1);
  std::vector<std::pair<index_t, index_t>> e;
  for (index_t k = 0; k < m; ++k) {
    const index_t i = pick(rng), j = pick(rng);
    if (i != j) e.emplace_back(i, j);
  }
  return graph(n, e);
}

// Hand-made and generated graphs, all small enough for a quick test.
inline std::vector<Case> small_cases() {
  std::vector<Case> c;
  c.push_back({"single vertex, empty row", graph(1, {})});
  c.push_back({"single vertex with a loop", graph(1, {}, {0})});
  c.push_back({"two isolated vertices", graph(2, {})});
  c.push_back({"path 10", graph(10, path_edges(10))});
  c.push_back({"path 10 with loops", graph(10, path_edges(10), {0, 3, 9})});
  {
    std::vector<std::pair<index_t, index_t>> e;
    for (index_t i = 1; i < 12; ++i) e.emplace_back(5, i == 5 ? 0 : i);
    c.push_back({"star 12 centred at 5", graph(12, e)});
  }
  {
    // More children of one parent than the tasks variant's counting sort takes.
    std::vector<std::pair<index_t, index_t>> e;
    for (index_t i = 1; i < 150; ++i) e.emplace_back(0, i);
    e.emplace_back(149, 150);
    c.push_back({"star 150 with a tail", graph(151, e)});
  }
  {
    std::vector<std::pair<index_t, index_t>> e;
    for (index_t i = 0; i < 9; ++i)
      for (index_t j = i + 1; j < 9; ++j) e.emplace_back(i, j);
    c.push_back({"complete 9", graph(9, e, {0, 1, 2, 3, 4, 5, 6, 7, 8})});
  }
  {
    // Two interleaved paths: even vertices and odd vertices.
    std::vector<std::pair<index_t, index_t>> e;
    for (index_t i = 2; i < 20; ++i) e.emplace_back(i - 2, i);
    c.push_back({"two interleaved components", graph(20, e)});
  }
  {
    // Isolated vertices before, between and after two components.
    std::vector<std::pair<index_t, index_t>> e = {{1, 2}, {2, 3}, {3, 1}, {5, 8}, {8, 6}, {6, 9}};
    c.push_back({"components and isolated vertices", graph(11, e, {0, 7})});
  }
  c.push_back({"directed path (unsymmetric)", graph(8, path_edges(8), {}, false)});
  c.push_back({"directed random (unsymmetric)", sparse::random_diagonally_dominant<double>(300, 1, 4, 7)});
  c.push_back({"grid 7 x 5", sparse::poisson2d<double>(7, 5)});
  c.push_back({"grid 30 x 30 scrambled", scrambled(sparse::poisson2d<double>(30, 30), 11)});
  c.push_back({"grid 8 x 7 x 6 scrambled", scrambled(sparse::poisson3d<double>(8, 7, 6), 12)});
  c.push_back({"random sparse, many components", random_graph(500, 300, 13)});
  c.push_back({"random denser", random_graph(400, 2000, 14)});
  c.push_back({"random spd scrambled", scrambled(sparse::random_spd<double>(1000, 9, 15), 16)});
  return c;
}

// Larger generated graphs (still well under a second on a GPU).
inline std::vector<Case> large_cases() {
  std::vector<Case> c;
  c.push_back({"poisson2d 300 x 300 scrambled", scrambled(sparse::poisson2d<double>(300, 300), 21)});
  c.push_back({"poisson3d 40^3 scrambled", scrambled(sparse::poisson3d<double>(40, 40, 40), 22)});
  c.push_back({"random graph 100000 / 300000 edges", random_graph(100000, 300000, 23)});
  {
    // A hub whose 4999 leaves are one level: wider than one task of the `tasks` variant.
    std::vector<std::pair<index_t, index_t>> e;
    for (index_t i = 1; i < 5000; ++i) e.emplace_back(1234, i == 1234 ? 0 : i);
    c.push_back({"star 5000 centred at 1234", graph(5000, e)});
  }
  // 20000 levels: more than one Narrow task of the `tasks` variant handles in one go.
  c.push_back({"path 20000 scrambled", scrambled(graph(20000, path_edges(20000)), 24)});
  {
    // A path of 40 into the hub of 3000 leaves: more than 16 narrow levels (a BFS task
    // then claims in shared memory), then a level wider than one task, from either end.
    std::vector<std::pair<index_t, index_t>> e = path_edges(41);
    for (index_t i = 41; i < 3041; ++i) e.emplace_back(40, i);
    c.push_back({"path 40 into a star of 3000, scrambled", scrambled(graph(3041, e), 25)});
  }
  return c;
}

// Every square matrix in the shared folder, in name order; empty when the folder is absent.
inline std::vector<Case> shared_cases() {
  std::vector<Case> out;
  const std::filesystem::path dir = APIARY_SHARED_MATRICES;
  if (!std::filesystem::is_directory(dir)) return out;
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().string().ends_with(".mtx.gz") || entry.path().string().ends_with(".mtx"))
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    Csr<double> a = sparse::read_csr<double>(file);
    if (a.rows == a.cols) out.push_back({file.filename().string(), std::move(a)});
  }
  return out;
}

}  // namespace apiary::rcm::testing
