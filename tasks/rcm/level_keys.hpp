// Sort keys of one Cuthill–McKee level, shared by the device kernels and the host
// emulation (so the host tests check the exact encoding the GPU uses).
//
// The serial reference (sparse/rcm.cpp) dequeues the vertices of level L in order and
// appends each one's unvisited neighbours sorted by (degree, index). A vertex of level
// L + 1 is therefore claimed by its neighbour of smallest position in level L, and level
// L + 1 as a whole is ordered by (parent position, degree, index). The GPU computes the
// minimal parent position with an atomic min and sorts the level by that triple.
//
// Single pass: the triple packed into one 64-bit key, (parent position - first position
// of level L) above the degree above the vertex index, when the three widths fit in 64
// bits. Two passes otherwise: a radix sort by index, then a stable radix sort by
// (relative parent position, degree); stability keeps equal pairs in index order.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define APIARY_RCM_HD __host__ __device__
#else
#define APIARY_RCM_HD
#endif

namespace apiary::rcm {

// Bits needed to represent x (0 for 0).
constexpr int bits_for(std::uint64_t x) {
  int b = 0;
  for (; x != 0; x >>= 1) ++b;
  return b;
}

struct LevelKeyLayout {
  int position_bits = 0;  // relative parent position: 0 .. parent level size - 1
  int degree_bits = 0;    // 0 .. max degree
  int index_bits = 0;     // 0 .. n - 1
  bool single_pass = true;

  // Single pass: the whole key; only valid when single_pass.
  APIARY_RCM_HD std::uint64_t pack(std::uint32_t relative_parent, std::uint32_t degree,
                                   std::uint32_t vertex) const {
    return (static_cast<std::uint64_t>(relative_parent) << (degree_bits + index_bits)) |
           (static_cast<std::uint64_t>(degree) << index_bits) | vertex;
  }
  // Two passes: the key of the second (stable) pass.
  APIARY_RCM_HD std::uint64_t pack_parent_degree(std::uint32_t relative_parent,
                                                 std::uint32_t degree) const {
    return (static_cast<std::uint64_t>(relative_parent) << degree_bits) | degree;
  }
  APIARY_RCM_HD std::uint32_t vertex_of(std::uint64_t key) const {
    return static_cast<std::uint32_t>(key & ((std::uint64_t{1} << index_bits) - 1));
  }
  // end_bit of the radix sort: the single-pass key, or the second pass's key.
  int key_bits() const {
    return single_pass ? position_bits + degree_bits + index_bits : position_bits + degree_bits;
  }
};

// Layout for sorting the children of a level of parent_level_size vertices in a graph of
// n vertices whose largest degree is max_degree. force_two_pass is for tests.
inline LevelKeyLayout level_key_layout(std::int64_t parent_level_size, std::int64_t max_degree,
                                       std::int64_t n, bool force_two_pass = false) {
  LevelKeyLayout k;
  k.position_bits = bits_for(static_cast<std::uint64_t>(parent_level_size > 0 ? parent_level_size - 1 : 0));
  k.degree_bits = bits_for(static_cast<std::uint64_t>(max_degree > 0 ? max_degree : 0));
  k.index_bits = bits_for(static_cast<std::uint64_t>(n > 0 ? n - 1 : 0));
  k.single_pass = !force_two_pass && k.position_bits + k.degree_bits + k.index_bits <= 64;
  return k;
}

}  // namespace apiary::rcm
