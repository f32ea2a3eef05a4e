#include <gtest/gtest.h>

#include "sparse/convert.hpp"

namespace apiary::sparse {
namespace {

Coo<double> small_coo() {
  // [ 1 0 2 ]
  // [ 0 0 3 ]
  // [ 4 5 0 ]   with (2,0) given twice as 1.5 + 2.5
  Coo<double> a;
  a.rows = 3;
  a.cols = 3;
  a.push_back(2, 1, 5.0);
  a.push_back(0, 2, 2.0);
  a.push_back(2, 0, 1.5);
  a.push_back(1, 2, 3.0);
  a.push_back(0, 0, 1.0);
  a.push_back(2, 0, 2.5);
  return a;
}

TEST(Convert, CooToCsrSortsAndSumsDuplicates) {
  const Csr<double> a = coo_to_csr(small_coo());
  EXPECT_EQ(a.row_ptr, (std::vector<index_t>{0, 2, 3, 5}));
  EXPECT_EQ(a.col, (std::vector<index_t>{0, 2, 2, 0, 1}));
  EXPECT_EQ(a.val, (std::vector<double>{1.0, 2.0, 3.0, 4.0, 5.0}));
}

TEST(Convert, CooToCsrRejectsEntriesOutsideTheMatrix) {
  Coo<double> a = small_coo();
  a.push_back(3, 0, 1.0);
  EXPECT_THROW(coo_to_csr(a), std::out_of_range);
}

TEST(Convert, TransposeTwiceIsIdentityAndRowsStaySorted) {
  const Csr<double> a = coo_to_csr(small_coo());
  const Csr<double> t = transpose(a);
  EXPECT_EQ(t.row_ptr, (std::vector<index_t>{0, 2, 3, 5}));
  EXPECT_EQ(t.col, (std::vector<index_t>{0, 2, 2, 0, 1}));
  EXPECT_EQ(t.val, (std::vector<double>{1.0, 4.0, 5.0, 2.0, 3.0}));
  const Csr<double> tt = transpose(t);
  EXPECT_EQ(tt.row_ptr, a.row_ptr);
  EXPECT_EQ(tt.col, a.col);
  EXPECT_EQ(tt.val, a.val);
}

TEST(Convert, CscRoundTrip) {
  const Csr<double> a = coo_to_csr(small_coo());
  const Csc<double> c = csr_to_csc(a);
  EXPECT_EQ(c.col_ptr, (std::vector<index_t>{0, 2, 3, 5}));
  EXPECT_EQ(c.row, (std::vector<index_t>{0, 2, 2, 0, 1}));
  const Csr<double> back = csc_to_csr(c);
  EXPECT_EQ(back.col, a.col);
  EXPECT_EQ(back.val, a.val);
}

TEST(Formats, CheckFitsIndexRefusesOverflow) {
  EXPECT_NO_THROW(check_fits_index(10, 10, 100, "m"));
  EXPECT_THROW(check_fits_index(std::int64_t{1} << 31, 1, 1, "m"), SizeError);
  EXPECT_THROW(check_fits_index(1, 1, std::int64_t{3} << 30, "m"), SizeError);
  EXPECT_THROW(check_fits_index(-1, 1, 1, "m"), SizeError);
}

}  // namespace
}  // namespace apiary::sparse
