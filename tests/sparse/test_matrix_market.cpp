// Matrix Market reader/writer: expansion of every field x symmetry, tolerant syntax,
// gzip, exact round trips, the catalogue of broken files in tests/data/broken and the
// SuiteSparse matrices of the shared folder.
#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "sparse/convert.hpp"
#include "sparse/formats.hpp"
#include "sparse/matrix_market.hpp"

namespace apiary::sparse {
namespace {

namespace fs = std::filesystem;

using Entry = std::tuple<index_t, index_t, double>;  // 0-based

template <class T>
std::vector<Entry> entries_of(const Coo<T>& a) {
  std::vector<Entry> out;
  for (std::size_t k = 0; k < a.nnz(); ++k)
    out.emplace_back(a.row[k], a.col[k], static_cast<double>(a.val[k]));
  return out;
}

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void spit(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
  ASSERT_TRUE(out.good()) << path;
}

// gzip through zlib's deflate directly, independent of the writer under test.
std::string gzip_bytes(const std::string& text) {
  z_stream zs{};
  EXPECT_EQ(deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(deflateBound(&zs, static_cast<uLong>(text.size())) + 32, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  zs.avail_in = static_cast<uInt>(text.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&zs, Z_FINISH), Z_STREAM_END);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

// A fresh directory per test, removed afterwards.
class MatrixMarketFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           (std::string("apiary_mm_") + info->name() + "_" + std::to_string(std::random_device{}()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  fs::path dir_;
};

template <class T>
Csr<T> random_csr(index_t rows, index_t cols, double density, std::mt19937_64& rng,
                  const std::vector<T>& specials) {
  Coo<T> coo;
  coo.rows = rows;
  coo.cols = cols;
  std::bernoulli_distribution keep(density);
  using Bits = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>;
  std::size_t next_special = 0;
  for (index_t r = 0; r < rows; ++r)
    for (index_t c = 0; c < cols; ++c) {
      if (!keep(rng)) continue;
      T v;
      if (next_special < specials.size()) {
        v = specials[next_special++];
      } else {
        // Uniform bit patterns cover every exponent, subnormals included.
        do {
          v = std::bit_cast<T>(static_cast<Bits>(rng()));
        } while (!std::isfinite(v));
      }
      coo.push_back(r, c, v);
    }
  return coo_to_csr(coo);
}

template <class T>
void expect_bit_identical(const Csr<T>& a, const Csr<T>& b) {
  ASSERT_EQ(a.rows, b.rows);
  ASSERT_EQ(a.cols, b.cols);
  ASSERT_EQ(a.row_ptr, b.row_ptr);
  ASSERT_EQ(a.col, b.col);
  ASSERT_EQ(a.val.size(), b.val.size());
  for (std::size_t k = 0; k < a.val.size(); ++k)
    ASSERT_EQ(std::memcmp(&a.val[k], &b.val[k], sizeof(T)), 0)
        << "entry " << k << ": wrote " << a.val[k] << ", read " << b.val[k];
}

// --- expansion of every field x symmetry ------------------------------------------------

struct ExpansionCase {
  const char* label;
  const char* text;
  MmField field;
  MmSymmetry symmetry;
  std::int64_t stored;
  std::vector<Entry> expected;  // file order, mirror right after its source
};

class MatrixMarketExpansion : public ::testing::TestWithParam<ExpansionCase> {};

TEST_P(MatrixMarketExpansion, ExpandsEntryByEntry) {
  const ExpansionCase& c = GetParam();
  const auto m = parse_matrix_market<double>(c.text, c.label);
  EXPECT_EQ(m.header.field, c.field);
  EXPECT_EQ(m.header.symmetry, c.symmetry);
  EXPECT_EQ(m.header.rows, 3);
  EXPECT_EQ(m.header.cols, 3);
  EXPECT_EQ(m.header.stored_entries, c.stored);
  EXPECT_EQ(m.coo.rows, 3);
  EXPECT_EQ(m.coo.cols, 3);
  const auto got = entries_of(m.coo);
  ASSERT_EQ(got.size(), c.expected.size());
  for (std::size_t k = 0; k < got.size(); ++k) EXPECT_EQ(got[k], c.expected[k]) << "entry " << k;

  // The float instantiation expands identically, values rounded to float.
  auto expected_float = c.expected;
  for (auto& e : expected_float) std::get<2>(e) = static_cast<float>(std::get<2>(e));
  const auto f = parse_matrix_market<float>(c.text, c.label);
  EXPECT_EQ(entries_of(f.coo), expected_float);
}

INSTANTIATE_TEST_SUITE_P(
    MatrixMarket, MatrixMarketExpansion,
    ::testing::Values(
        ExpansionCase{"real_general",
                      "%%MatrixMarket matrix coordinate real general\n3 3 3\n"
                      "1 1 1.5\n3 2 -2.25\n2 3 4e-3\n",
                      MmField::real, MmSymmetry::general, 3,
                      {{0, 0, 1.5}, {2, 1, -2.25}, {1, 2, 4e-3}}},
        ExpansionCase{"real_symmetric",
                      "%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n"
                      "1 1 2\n3 1 -1.5\n3 2 0.25\n",
                      MmField::real, MmSymmetry::symmetric, 3,
                      {{0, 0, 2.0}, {2, 0, -1.5}, {0, 2, -1.5}, {2, 1, 0.25}, {1, 2, 0.25}}},
        ExpansionCase{"real_skew_symmetric",
                      "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 3\n"
                      "2 1 1.5\n3 1 -2\n3 3 0\n",
                      MmField::real, MmSymmetry::skew_symmetric, 3,
                      {{1, 0, 1.5}, {0, 1, -1.5}, {2, 0, -2.0}, {0, 2, 2.0}, {2, 2, 0.0}}},
        ExpansionCase{"integer_general",
                      "%%MatrixMarket matrix coordinate integer general\n3 3 2\n"
                      "1 2 7\n3 3 -4\n",
                      MmField::integer, MmSymmetry::general, 2, {{0, 1, 7.0}, {2, 2, -4.0}}},
        ExpansionCase{"integer_symmetric",
                      "%%MatrixMarket matrix coordinate integer symmetric\n3 3 2\n"
                      "2 1 -3\n2 2 5\n",
                      MmField::integer, MmSymmetry::symmetric, 2,
                      {{1, 0, -3.0}, {0, 1, -3.0}, {1, 1, 5.0}}},
        ExpansionCase{"integer_skew_symmetric",
                      "%%MatrixMarket matrix coordinate integer skew-symmetric\n3 3 2\n"
                      "3 2 9\n2 1 +1\n",
                      MmField::integer, MmSymmetry::skew_symmetric, 2,
                      {{2, 1, 9.0}, {1, 2, -9.0}, {1, 0, 1.0}, {0, 1, -1.0}}},
        ExpansionCase{"pattern_general",
                      "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 3\n2 2\n",
                      MmField::pattern, MmSymmetry::general, 2, {{0, 2, 1.0}, {1, 1, 1.0}}},
        ExpansionCase{"pattern_symmetric",
                      "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 3\n",
                      MmField::pattern, MmSymmetry::symmetric, 2,
                      {{1, 0, 1.0}, {0, 1, 1.0}, {2, 2, 1.0}}},
        ExpansionCase{"pattern_skew_symmetric",
                      "%%MatrixMarket matrix coordinate pattern skew-symmetric\n3 3 1\n3 1\n",
                      MmField::pattern, MmSymmetry::skew_symmetric, 1,
                      {{2, 0, 1.0}, {0, 2, -1.0}}}),
    [](const ::testing::TestParamInfo<ExpansionCase>& info) { return info.param.label; });

// --- syntax accepted ---------------------------------------------------------------------

TEST(MatrixMarketParse, CommentsBlankLinesAndWhitespace) {
  const std::string text =
      "%%MatrixMarket matrix coordinate real general\r\n"
      "% a comment right after the banner\r\n"
      "\r\n"
      "   \t\r\n"
      "  % an indented comment\n"
      "  4\t3   3  \r\n"
      "%\n"
      "\n"
      "1 1 1.0\n"
      "% between entries\n"
      "\t4  3\t-2\r\n"
      "\n\n"
      "2 2 +.5e1";  // no final newline
  const auto m = parse_matrix_market<double>(text, "mem");
  EXPECT_EQ(m.header.rows, 4);
  EXPECT_EQ(m.header.cols, 3);
  EXPECT_EQ(entries_of(m.coo), (std::vector<Entry>{{0, 0, 1.0}, {3, 2, -2.0}, {1, 1, 5.0}}));
}

TEST(MatrixMarketParse, BannerIsCaseInsensitive) {
  const auto m = parse_matrix_market<double>(
      "%%matrixmarket MATRIX Coordinate REAL Skew-Symmetric\n2 2 1\n2 1 3\n", "mem");
  EXPECT_EQ(m.header.field, MmField::real);
  EXPECT_EQ(m.header.symmetry, MmSymmetry::skew_symmetric);
  EXPECT_EQ(entries_of(m.coo), (std::vector<Entry>{{1, 0, 3.0}, {0, 1, -3.0}}));
  EXPECT_NO_THROW(parse_matrix_market<double>(
      "%%MATRIXMARKET matrix coordinate Pattern GENERAL\n1 1 1\n1 1\n", "mem"));
}

TEST(MatrixMarketParse, NumberForms) {
  const auto m = parse_matrix_market<double>(
      "%%MatrixMarket matrix coordinate real general\n1 8 8\n"
      "1 1 1E3\n1 2 .5\n1 3 5.\n1 4 -0\n1 5 1e-400\n1 6 -1e-400\n1 7 4.9e-324\n"
      "1 8 1.7976931348623157e308\n",
      "mem");
  const auto& v = m.coo.val;
  ASSERT_EQ(v.size(), 8u);
  EXPECT_EQ(v[0], 1000.0);
  EXPECT_EQ(v[1], 0.5);
  EXPECT_EQ(v[2], 5.0);
  EXPECT_TRUE(v[3] == 0.0 && std::signbit(v[3]));
  EXPECT_TRUE(v[4] == 0.0 && !std::signbit(v[4])) << "underflow reads as zero";
  EXPECT_TRUE(v[5] == 0.0 && std::signbit(v[5]));
  EXPECT_EQ(v[6], std::numeric_limits<double>::denorm_min());
  EXPECT_EQ(v[7], std::numeric_limits<double>::max());
}

TEST(MatrixMarketParse, EmptyMatrixAndZeroEntries) {
  const auto m = parse_matrix_market<double>("%%MatrixMarket matrix coordinate real general\n0 0 0\n",
                                             "mem");
  EXPECT_EQ(m.header.rows, 0);
  EXPECT_EQ(m.coo.nnz(), 0u);
  const auto n = parse_matrix_market<double>(
      "%%MatrixMarket matrix coordinate real symmetric\n5 5 0\n% nothing\n", "mem");
  EXPECT_EQ(n.coo.rows, 5);
  EXPECT_EQ(n.coo.nnz(), 0u);
}

TEST(MatrixMarketParse, ErrorCarriesPathLineAndMessage) {
  try {
    parse_matrix_market<double>("%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1\n",
                                "dir/a.mtx");
    FAIL() << "no exception";
  } catch (const InputError& e) {
    EXPECT_EQ(e.path(), "dir/a.mtx");
    EXPECT_EQ(e.line(), 3);
    EXPECT_EQ(e.message(), "row index 3 out of range [1, 2]");
    EXPECT_STREQ(e.what(), "dir/a.mtx:3: row index 3 out of range [1, 2]");
  }
  try {
    parse_matrix_market<double>("", "e.mtx");
    FAIL() << "no exception";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 0);
    EXPECT_STREQ(e.what(), "e.mtx: empty file");
  }
}

TEST(MatrixMarketParse, LyingSizeLineDoesNotReserveItsClaim) {
  // 2e9 declared entries would reserve ~32 GB if trusted; the text holds one.
  try {
    parse_matrix_market<double>(
        "%%MatrixMarket matrix coordinate real symmetric\n2000000000 2000000000 2000000000\n"
        "1 1 1\n",
        "lie.mtx");
    FAIL() << "no exception";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 3);
    EXPECT_NE(e.message().find("fewer entries than declared"), std::string::npos) << e.what();
  }
}

TEST(MatrixMarketParse, ControlBytesAreMaskedInMessages) {
  try {
    parse_matrix_market<double>(
        std::string("%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 ") + "\x01\x7f",
        "bin.mtx");
    FAIL() << "no exception";
  } catch (const InputError& e) {
    EXPECT_NE(e.message().find("found '?" "?'"), std::string::npos) << e.what();
  }
}

TEST(MatrixMarketParse, FloatRangeChecks) {
  const std::string head = "%%MatrixMarket matrix coordinate real general\n1 1 1\n";
  EXPECT_EQ(parse_matrix_market<float>(head + "1 1 3.4028234e38\n", "f").coo.val[0],
            std::numeric_limits<float>::max());
  EXPECT_EQ(parse_matrix_market<float>(head + "1 1 1e-50\n", "f").coo.val[0], 0.0f);
  // Finite as double, not as float.
  EXPECT_EQ(parse_matrix_market<double>(head + "1 1 1e39\n", "f").coo.val[0], 1e39);
  try {
    parse_matrix_market<float>(head + "1 1 -1e39\n", "f.mtx");
    FAIL() << "no exception";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 3);
    EXPECT_NE(e.message().find("out of range of float"), std::string::npos) << e.what();
  }
}

// --- files, gzip, duplicates ------------------------------------------------------------

TEST_F(MatrixMarketFiles, ReadCsrSumsDuplicates) {
  const fs::path p = dir_ / "dup.mtx";
  spit(p,
       "%%MatrixMarket matrix coordinate real general\n2 3 5\n"
       "2 3 1.5\n1 1 1\n2 3 2.5\n1 2 4\n1 1 -3\n");
  const Csr<double> a = read_csr<double>(p);
  EXPECT_EQ(a.rows, 2);
  EXPECT_EQ(a.cols, 3);
  EXPECT_EQ(a.row_ptr, (std::vector<index_t>{0, 2, 3}));
  EXPECT_EQ(a.col, (std::vector<index_t>{0, 1, 2}));
  EXPECT_EQ(a.val, (std::vector<double>{-2.0, 4.0, 4.0}));

  // The COO keeps them as read.
  EXPECT_EQ(read_matrix_market<double>(p).coo.nnz(), 5u);

  // A symmetric file listing both triangles doubles the off-diagonal (documented).
  const fs::path s = dir_ / "both.mtx";
  spit(s, "%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n2 1 1\n1 2 1\n");
  EXPECT_EQ(read_csr<double>(s).val, (std::vector<double>{2.0, 2.0}));
}

TEST_F(MatrixMarketFiles, GzipFromWriterRoundTrips) {
  std::mt19937_64 rng(7);
  const Csr<double> a = random_csr<double>(40, 30, 0.2, rng, {0.1, 1.0 / 3.0});
  const fs::path p = dir_ / "a.mtx.gz";
  write_matrix_market(p, a);
  const std::string bytes = slurp(p);
  ASSERT_GE(bytes.size(), 2u);
  EXPECT_EQ(static_cast<unsigned char>(bytes[0]), 0x1f);
  EXPECT_EQ(static_cast<unsigned char>(bytes[1]), 0x8b);
  expect_bit_identical(a, read_csr<double>(p));
}

TEST_F(MatrixMarketFiles, GzipFromZlibDirectly) {
  const std::string text =
      "%%MatrixMarket matrix coordinate integer symmetric\n3 3 2\n2 1 5\n3 3 -1\n";
  const std::string gz = gzip_bytes(text);
  spit(dir_ / "z.mtx.gz", gz);
  const auto m = read_matrix_market<double>(dir_ / "z.mtx.gz");
  EXPECT_EQ(entries_of(m.coo), (std::vector<Entry>{{1, 0, 5.0}, {0, 1, 5.0}, {2, 2, -1.0}}));

  // The content decides, not the name.
  spit(dir_ / "compressed_but_named.mtx", gz);
  EXPECT_EQ(read_matrix_market<double>(dir_ / "compressed_but_named.mtx").coo.nnz(), 3u);
  spit(dir_ / "plain_but_named.mtx.gz", text);
  EXPECT_EQ(read_matrix_market<double>(dir_ / "plain_but_named.mtx.gz").coo.nnz(), 3u);

  // gzip(1) allows concatenated members; the text is their concatenation.
  const std::string part1 = "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n";
  const std::string part2 = "2 2 2\n";
  spit(dir_ / "members.mtx.gz", gzip_bytes(part1) + gzip_bytes(part2));
  EXPECT_EQ(read_matrix_market<double>(dir_ / "members.mtx.gz").coo.nnz(), 2u);
}

TEST_F(MatrixMarketFiles, EveryTruncationOfAGzipFileIsAnInputError) {
  std::string text = "%%MatrixMarket matrix coordinate real general\n50 50 50\n";
  for (int k = 1; k <= 50; ++k) text += std::to_string(k) + " " + std::to_string(k) + " 0.5\n";
  const std::string gz = gzip_bytes(text);
  const fs::path p = dir_ / "cut.mtx.gz";
  for (std::size_t n = 2; n < gz.size(); ++n) {
    spit(p, gz.substr(0, n));
    try {
      read_matrix_market<double>(p);
      ADD_FAILURE() << "cut at " << n << " of " << gz.size() << " bytes was accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(e.line(), 0) << e.what();
      EXPECT_NE(e.message().find("truncated gzip"), std::string::npos) << e.what();
    }
  }
}

TEST_F(MatrixMarketFiles, GzipWithTrailingGarbageIsCorrupt) {
  const std::string gz =
      gzip_bytes("%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 1\n") + "junk-junk";
  spit(dir_ / "junk.mtx.gz", gz);
  try {
    read_matrix_market<double>(dir_ / "junk.mtx.gz");
    FAIL() << "no exception";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 0);
    EXPECT_NE(e.message().find("corrupt gzip"), std::string::npos) << e.what();
  }
}

TEST_F(MatrixMarketFiles, IoErrorsAreInputErrorsWithoutLine) {
  try {
    read_matrix_market<double>(dir_ / "missing.mtx");
    FAIL() << "no exception";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 0);
    EXPECT_NE(e.message().find("cannot open"), std::string::npos) << e.what();
  }
  Csr<double> a;
  for (const char* name : {"no/such/dir/a.mtx", "no/such/dir/a.mtx.gz"}) {
    try {
      write_matrix_market(dir_ / name, a);
      FAIL() << "no exception for " << name;
    } catch (const InputError& e) {
      EXPECT_EQ(e.line(), 0);
      EXPECT_EQ(e.path(), (dir_ / name).string());
      EXPECT_NE(e.message().find("cannot open for writing"), std::string::npos) << e.what();
    }
  }
}

// --- writer ------------------------------------------------------------------------------

TEST(MatrixMarketRoundTrip, DoubleValuesAreBitIdentical) {
  std::mt19937_64 rng(42);
  const std::vector<double> specials = {0.1,
                                        1.0 / 3.0,
                                        1e-300,
                                        -2.5e307,
                                        -0.0,
                                        std::numeric_limits<double>::denorm_min(),
                                        std::numeric_limits<double>::max(),
                                        -std::numeric_limits<double>::min(),
                                        2.0 / 3.0,
                                        123456789.123456789,
                                        1e23,
                                        5e-324};
  const Csr<double> a = random_csr<double>(120, 90, 0.1, rng, specials);
  ASSERT_GT(a.nnz(), 500u);
  const std::string text = format_matrix_market(a);
  const auto m = parse_matrix_market<double>(text, "round");
  EXPECT_EQ(m.header.field, MmField::real);
  EXPECT_EQ(m.header.symmetry, MmSymmetry::general);
  EXPECT_EQ(m.header.stored_entries, static_cast<std::int64_t>(a.nnz()));
  expect_bit_identical(a, coo_to_csr(m.coo));
}

TEST(MatrixMarketRoundTrip, FloatValuesAreBitIdentical) {
  std::mt19937_64 rng(43);
  const std::vector<float> specials = {0.1f, 1.0f / 3.0f, -0.0f,
                                       std::numeric_limits<float>::denorm_min(),
                                       std::numeric_limits<float>::max(), 16777217.0f};
  const Csr<float> a = random_csr<float>(100, 100, 0.1, rng, specials);
  const auto m = parse_matrix_market<float>(format_matrix_market(a), "round");
  expect_bit_identical(a, coo_to_csr(m.coo));
}

TEST_F(MatrixMarketFiles, RoundTripThroughPlainFile) {
  std::mt19937_64 rng(44);
  const Csr<double> a = random_csr<double>(64, 64, 0.05, rng, {});
  write_matrix_market(dir_ / "a.mtx", a);
  EXPECT_EQ(slurp(dir_ / "a.mtx"), format_matrix_market(a));
  expect_bit_identical(a, read_csr<double>(dir_ / "a.mtx"));
  // A rectangular matrix with empty rows and columns keeps its shape.
  Csr<double> b;
  b.rows = 4;
  b.cols = 7;
  b.row_ptr = {0, 0, 1, 1, 1};
  b.col = {6};
  b.val = {-1.25};
  write_matrix_market(dir_ / "b.mtx", b);
  expect_bit_identical(b, read_csr<double>(dir_ / "b.mtx"));
}

Csr<double> small_csr() {
  Csr<double> a;
  a.rows = 2;
  a.cols = 3;
  a.row_ptr = {0, 2, 3};
  a.col = {0, 2, 1};
  a.val = {0.1, -2.5e307, 7.0};
  return a;
}

TEST(MatrixMarketWriter, RealText) {
  EXPECT_EQ(format_matrix_market(small_csr()),
            "%%MatrixMarket matrix coordinate real general\n2 3 3\n"
            "1 1 0.1\n1 3 -2.5e+307\n2 2 7\n");
}

TEST(MatrixMarketWriter, PatternMode) {
  const std::string text = format_matrix_market(small_csr(), MmField::pattern);
  EXPECT_EQ(text, "%%MatrixMarket matrix coordinate pattern general\n2 3 3\n1 1\n1 3\n2 2\n");
  const auto m = parse_matrix_market<double>(text, "p");
  EXPECT_EQ(m.header.field, MmField::pattern);
  EXPECT_EQ(entries_of(m.coo), (std::vector<Entry>{{0, 0, 1.0}, {0, 2, 1.0}, {1, 1, 1.0}}));
}

TEST(MatrixMarketWriter, IntegerMode) {
  Csr<double> a = small_csr();
  a.val = {-3.0, 9007199254740992.0, 0.0};
  const std::string text = format_matrix_market(a, MmField::integer);
  EXPECT_EQ(text,
            "%%MatrixMarket matrix coordinate integer general\n2 3 3\n"
            "1 1 -3\n1 3 9007199254740992\n2 2 0\n");
  const auto m = parse_matrix_market<double>(text, "i");
  EXPECT_EQ(m.header.field, MmField::integer);
  expect_bit_identical(a, coo_to_csr(m.coo));

  a.val[1] = 0.5;
  EXPECT_THROW(format_matrix_market(a, MmField::integer), std::invalid_argument);
  a.val[1] = 1e19;
  EXPECT_THROW(format_matrix_market(a, MmField::integer), std::invalid_argument);
}

TEST(MatrixMarketWriter, RefusesWhatTheReaderRefuses) {
  Csr<double> a = small_csr();
  a.val[2] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(format_matrix_market(a), std::invalid_argument);
  a.val[2] = -std::numeric_limits<double>::infinity();
  EXPECT_THROW(format_matrix_market(a), std::invalid_argument);
  // Pattern mode carries no values, so nothing to refuse.
  EXPECT_NO_THROW(format_matrix_market(a, MmField::pattern));
}

TEST(MatrixMarketWriter, ToString) {
  EXPECT_EQ(to_string(MmField::real), "real");
  EXPECT_EQ(to_string(MmField::integer), "integer");
  EXPECT_EQ(to_string(MmField::pattern), "pattern");
  EXPECT_EQ(to_string(MmSymmetry::general), "general");
  EXPECT_EQ(to_string(MmSymmetry::symmetric), "symmetric");
  EXPECT_EQ(to_string(MmSymmetry::skew_symmetric), "skew-symmetric");
}

// --- the catalogue of broken files -------------------------------------------------------

struct BrokenCase {
  std::string file;
  std::int64_t line;
  std::string substring;
};

const fs::path kBrokenDir = fs::path(APIARY_TEST_DATA) / "broken";

std::vector<BrokenCase> load_expected() {
  std::ifstream in(kBrokenDir / "EXPECTED.txt");
  EXPECT_TRUE(in.good()) << "cannot open " << kBrokenDir / "EXPECTED.txt";
  std::vector<BrokenCase> out;
  std::string row;
  while (std::getline(in, row)) {
    if (row.empty() || row[0] == '#') continue;
    const auto t1 = row.find('\t');
    const auto t2 = row.find('\t', t1 == std::string::npos ? t1 : t1 + 1);
    if (t1 == std::string::npos || t2 == std::string::npos) {
      ADD_FAILURE() << "EXPECTED.txt: malformed row '" << row << "'";
      continue;
    }
    out.push_back({row.substr(0, t1), std::stoll(row.substr(t1 + 1, t2 - t1 - 1)),
                   row.substr(t2 + 1)});
  }
  return out;
}

template <class T>
void expect_input_error(const BrokenCase& c) {
  const fs::path path = kBrokenDir / c.file;
  try {
    read_matrix_market<T>(path);
    ADD_FAILURE() << c.file << ": accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.path(), path.string());
    EXPECT_EQ(e.line(), c.line) << e.what();
    EXPECT_NE(e.message().find(c.substring), std::string::npos)
        << c.file << ": message lacks \"" << c.substring << "\": " << e.what();
    const std::string prefix =
        c.line == 0 ? path.string() + ": " : path.string() + ":" + std::to_string(c.line) + ": ";
    EXPECT_EQ(std::string(e.what()).rfind(prefix, 0), 0u) << e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << c.file << ": threw something other than InputError: " << e.what();
  }
}

TEST(MatrixMarketBroken, EachFileFailsAsExpected) {
  const auto cases = load_expected();
  ASSERT_GE(cases.size(), 15u);
  for (const auto& c : cases) {
    SCOPED_TRACE(c.file);
    expect_input_error<double>(c);
    expect_input_error<float>(c);
  }
}

TEST(MatrixMarketBroken, EveryFileInTheFolderIsListed) {
  std::set<std::string> listed;
  for (const auto& c : load_expected()) EXPECT_TRUE(listed.insert(c.file).second) << c.file;
  std::set<std::string> present;
  for (const auto& entry : fs::directory_iterator(kBrokenDir))
    if (entry.path().filename() != "EXPECTED.txt") present.insert(entry.path().filename().string());
  for (const auto& f : present) EXPECT_TRUE(listed.count(f)) << f << " is not in EXPECTED.txt";
  for (const auto& f : listed) EXPECT_TRUE(present.count(f)) << f << " is listed but missing";
}

// --- real matrices -----------------------------------------------------------------------

struct ReadmeRow {
  std::int64_t rows = 0, cols = 0, stored = 0, full = 0;
  std::string banner;
};

// Rows of the README tables: | `file` | name | R x C | nnz(full) | `banner` / `R C stored` | ...
std::map<std::string, ReadmeRow> load_readme(const fs::path& readme) {
  std::map<std::string, ReadmeRow> out;
  std::ifstream in(readme);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("| `", 0) != 0) continue;
    std::vector<std::string> cells;
    std::stringstream ss(line.substr(1));
    for (std::string cell; std::getline(ss, cell, '|');) {
      const auto b = cell.find_first_not_of(' ');
      const auto e = cell.find_last_not_of(' ');
      cells.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
    }
    if (cells.size() < 5) continue;
    auto unquote = [](std::string s) {
      s.erase(std::remove(s.begin(), s.end(), '`'), s.end());
      return s;
    };
    ReadmeRow r;
    r.full = std::stoll(cells[3]);
    const std::string header = cells[4];
    const auto slash = header.find(" / ");
    if (slash == std::string::npos) continue;
    r.banner = unquote(header.substr(0, slash));
    std::istringstream(unquote(header.substr(slash + 3))) >> r.rows >> r.cols >> r.stored;
    out[unquote(cells[0])] = r;
  }
  return out;
}

std::string fmt_banner(const MmHeader& h) {
  return "matrix coordinate " + std::string(to_string(h.field)) + " " +
         std::string(to_string(h.symmetry));
}

TEST(MatrixMarketShared, SuiteSparseMatricesMatchTheirReadme) {
  const fs::path dir = APIARY_SHARED_MATRICES;
  if (!fs::is_directory(dir)) GTEST_SKIP() << "no folder " << dir << " (shared SuiteSparse matrices)";
  const auto readme = load_readme(dir / "README.md");
  int checked = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string file = entry.path().filename().string();
    if (file.size() < 7 || file.compare(file.size() - 7, 7, ".mtx.gz") != 0) continue;
    SCOPED_TRACE(file);
    const auto it = readme.find(file);
    ASSERT_NE(it, readme.end()) << file << " is not described in README.md";
    const ReadmeRow& want = it->second;
    const auto m = read_matrix_market<double>(entry.path());
    EXPECT_EQ(m.header.rows, want.rows);
    EXPECT_EQ(m.header.cols, want.cols);
    EXPECT_EQ(m.header.stored_entries, want.stored);
    EXPECT_EQ(fmt_banner(m.header), want.banner);
    EXPECT_EQ(static_cast<std::int64_t>(m.coo.nnz()), want.full) << "expanded entry count";
    const Csr<double> a = coo_to_csr(m.coo);
    EXPECT_EQ(static_cast<std::int64_t>(a.nnz()), want.full) << "entries after summing duplicates";
    ++checked;
  }
  EXPECT_GT(checked, 0) << "no *.mtx.gz in " << dir;
}

}  // namespace
}  // namespace apiary::sparse
