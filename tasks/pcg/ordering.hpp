// Orderings applied to the SPD matrix before IC(0): natural, reverse Cuthill-McKee
// (sparse::rcm) and greedy graph colouring. Every ordering is a permutation in the
// sparse/transform.hpp convention (perm[new] = old), applied with
// sparse::permute_symmetric.
//
// Colouring: rows of one colour are mutually non-adjacent, so after the permutation
// (colour classes in order, rows by index within a class) the strictly lower part of a
// colour's diagonal block is empty: the triangular solves with L and L^T take one
// parallel step per colour. The price is a weaker IC(0) (more PCG iterations).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sparse/formats.hpp"

namespace apiary::pcg {

using sparse::Csr;
using sparse::index_t;

enum class Order { natural, rcm, color };
inline constexpr Order kOrders[] = {Order::natural, Order::rcm, Order::color};

std::string_view to_string(Order o);              // "natural", "rcm", "color"
std::optional<Order> parse_order(std::string_view s);

struct Coloring {
  std::vector<index_t> color;  // colour of each row, 0 .. colors-1
  index_t colors = 0;
  std::vector<index_t> perm;   // colour classes in order, rows by index within: perm[new] = old
  std::vector<index_t> class_ptr{0};  // rows of colour c are perm[class_ptr[c] .. class_ptr[c+1])
};

// Greedy colouring in row order: each row takes the smallest colour that none of its
// neighbours (off-diagonal entries of its row, pattern assumed symmetric) holds yet.
// Uses at most (max degree + 1) colours. std::invalid_argument for a non-square matrix.
Coloring greedy_coloring(const Csr<double>& pattern);

struct Ordering {
  Order order = Order::natural;
  std::vector<index_t> perm;  // perm[new] = old
  index_t colors = 0;         // for Order::color
  double ms = 0;              // host time to compute it
};

// The permutation of `a` (square, symmetric pattern) for the ordering.
Ordering make_ordering(const Csr<double>& a, Order o);

}  // namespace apiary::pcg
