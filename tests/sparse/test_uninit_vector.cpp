// sparse::UninitVector: a std::vector in every respect but the zeroing of new trivial
// elements by resize; values given explicitly are kept.
#include <gtest/gtest.h>

#include <utility>

#include "sparse/uninit_vector.hpp"

namespace apiary::sparse {
namespace {

TEST(UninitVector, KeepsEveryValueGiven) {
  UninitVector<int> v(3, 7);
  EXPECT_EQ(v, (UninitVector<int>{7, 7, 7}));
  v.resize(5);  // two new elements, not written: only their count is defined
  ASSERT_EQ(v.size(), 5u);
  EXPECT_EQ(v[0] + v[1] + v[2], 21);
  v[3] = 1;
  v[4] = 2;
  v.resize(8, -1);
  EXPECT_EQ(v, (UninitVector<int>{7, 7, 7, 1, 2, -1, -1, -1}));
  v.emplace_back(9);
  v.push_back(10);
  EXPECT_EQ(v.back(), 10);
  EXPECT_EQ(v[8], 9);
  const UninitVector<int> copy = v;
  EXPECT_EQ(copy, v);
  UninitVector<std::pair<int, double>> pairs;
  pairs.emplace_back(1, 2.5);
  EXPECT_EQ(pairs[0], (std::pair<int, double>{1, 2.5}));
}

}  // namespace
}  // namespace apiary::sparse
