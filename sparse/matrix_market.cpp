// Matrix Market reader and writer. The parser makes one pass over the text in memory:
// pointer arithmetic for whitespace, a digit loop for indices, std::from_chars for values.
// Everything that builds an error message sits behind a cold, non-inlined call so that the
// per-entry path stays small.
#include "sparse/matrix_market.hpp"

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <system_error>
#include <type_traits>
#include <utility>

#include <fmt/format.h>

#include "sparse/convert.hpp"

namespace apiary::sparse {

namespace {

std::string compose_what(const std::string& path, std::int64_t line, const std::string& message) {
  if (line == 0) return fmt::format("{}: {}", path, message);
  return fmt::format("{}:{}: {}", path, line, message);
}

constexpr std::string_view kSupported =
    "supported: %%MatrixMarket matrix coordinate real|integer|pattern "
    "general|symmetric|skew-symmetric";

[[noreturn, gnu::cold, gnu::noinline]] void fail(const std::string& name, std::int64_t line,
                                                 std::string message) {
  throw InputError(name, line, std::move(message));
}

inline bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }
inline bool is_digit(char c) { return static_cast<unsigned char>(c - '0') < 10; }
inline bool ends_token(const char* p, const char* end) {
  return p == end || is_blank(*p) || *p == '\n';
}
inline const char* skip_blanks(const char* p, const char* end) {
  while (p != end && is_blank(*p)) ++p;
  return p;
}
inline const char* find_eol(const char* p, const char* end) {
  const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
  return nl ? static_cast<const char*>(nl) : end;
}

// The offending token for a message: bounded, with control bytes masked so that a binary
// file fed by mistake does not garble the terminal.
std::string quote_token(const char* p, const char* end) {
  const char* q = p;
  while (!ends_token(q, end)) ++q;
  constexpr std::size_t max_shown = 40;
  const std::size_t n = static_cast<std::size_t>(q - p);
  std::string out = "'";
  for (std::size_t k = 0; k < std::min(n, max_shown); ++k) {
    const auto c = static_cast<unsigned char>(p[k]);
    out += (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '?';
  }
  out += n > max_shown ? "...'" : "'";
  return out;
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

// Skips blank and comment lines; false at the end of the text.
bool skip_to_content(const char*& p, const char* end, std::int64_t& line) {
  for (;;) {
    p = skip_blanks(p, end);
    if (p == end) return false;
    if (*p == '\n') {
      ++p;
      ++line;
    } else if (*p == '%') {
      p = find_eol(p, end);
    } else {
      return true;
    }
  }
}

// The line an "unexpected end" error points at: after a final '\n' the cursor's line
// number names a line that does not exist.
std::int64_t last_line(const char* begin, const char* end, std::int64_t line_at_end) {
  return (end != begin && end[-1] == '\n') ? line_at_end - 1 : line_at_end;
}

MmHeader parse_banner(const std::string& name, const char*& p, const char* end) {
  const char* eol = find_eol(p, end);
  const char* q = p;
  auto next_word = [&]() -> std::string_view {
    q = skip_blanks(q, eol);
    const char* s = q;
    while (q != eol && !is_blank(*q)) ++q;
    return {s, static_cast<std::size_t>(q - s)};
  };
  auto missing = [&](std::string_view what) {
    fail(name, 1, fmt::format("banner: missing {}; {}", what, kSupported));
  };

  if (!iequals(next_word(), "%%MatrixMarket"))
    fail(name, 1, fmt::format("missing %%MatrixMarket banner: the first line must be the banner; {}",
                              kSupported));
  const std::string_view object = next_word();
  if (object.empty()) missing("object ('matrix')");
  if (!iequals(object, "matrix"))
    fail(name, 1, fmt::format("banner: object '{}' is not supported; {}", object, kSupported));

  const std::string_view format = next_word();
  if (format.empty()) missing("format ('coordinate')");
  if (iequals(format, "array"))
    fail(name, 1, fmt::format("banner: array (dense) format is not supported; {}", kSupported));
  if (!iequals(format, "coordinate"))
    fail(name, 1, fmt::format("banner: unknown format '{}'; {}", format, kSupported));

  MmHeader h;
  const std::string_view field = next_word();
  if (field.empty()) missing("field (real, integer or pattern)");
  if (iequals(field, "real")) {
    h.field = MmField::real;
  } else if (iequals(field, "integer")) {
    h.field = MmField::integer;
  } else if (iequals(field, "pattern")) {
    h.field = MmField::pattern;
  } else if (iequals(field, "complex")) {
    fail(name, 1, fmt::format("banner: complex field is not supported; {}", kSupported));
  } else {
    fail(name, 1, fmt::format("banner: unknown field '{}'; {}", field, kSupported));
  }

  const std::string_view symmetry = next_word();
  if (symmetry.empty()) missing("symmetry (general, symmetric or skew-symmetric)");
  if (iequals(symmetry, "general")) {
    h.symmetry = MmSymmetry::general;
  } else if (iequals(symmetry, "symmetric")) {
    h.symmetry = MmSymmetry::symmetric;
  } else if (iequals(symmetry, "skew-symmetric")) {
    h.symmetry = MmSymmetry::skew_symmetric;
  } else if (iequals(symmetry, "hermitian")) {
    fail(name, 1, fmt::format("banner: hermitian symmetry is not supported; {}", kSupported));
  } else {
    fail(name, 1, fmt::format("banner: unknown symmetry '{}'; {}", symmetry, kSupported));
  }

  const std::string_view extra = next_word();
  if (!extra.empty()) fail(name, 1, fmt::format("banner: unexpected extra word '{}'", extra));
  p = eol;
  return h;
}

std::int64_t read_size_field(const std::string& name, const char*& p, const char* end,
                             std::int64_t line, std::string_view what) {
  p = skip_blanks(p, end);
  if (p == end || *p == '\n')
    fail(name, line, fmt::format("size line: missing {} (expected 'rows columns entries')", what));
  const char* digits = (*p == '+') ? p + 1 : p;
  std::int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(digits, end, v);
  if (ptr == digits || !ends_token(ptr, end))
    fail(name, line,
         fmt::format("size line: {} must be an integer, found {}", what, quote_token(p, end)));
  if (ec == std::errc::result_out_of_range)
    fail(name, line,
         fmt::format("size line: {} {} does not fit 32-bit indices", what, quote_token(p, end)));
  if (v < 0) fail(name, line, fmt::format("size line: negative {} ({})", what, v));
  p = ptr;
  return v;
}

// Everything after the banner up to the first entry: comments, the size line, checks on it.
void parse_size_line(const std::string& name, const char* begin, const char*& p, const char* end,
                     std::int64_t& line, MmHeader& h) {
  if (!skip_to_content(p, end, line))
    fail(name, last_line(begin, end, line),
         "missing size line (expected 'rows columns entries' after the banner)");
  const std::int64_t rows = read_size_field(name, p, end, line, "number of rows");
  const std::int64_t cols = read_size_field(name, p, end, line, "number of columns");
  const std::int64_t entries = read_size_field(name, p, end, line, "number of entries");
  p = skip_blanks(p, end);
  if (p != end && *p != '\n')
    fail(name, line,
         fmt::format("size line: unexpected extra token {} (a coordinate size line has 3 numbers)",
                     quote_token(p, end)));
  try {
    check_fits_index(rows, cols, entries, "size line");
  } catch (const SizeError& e) {
    fail(name, line, e.what());
  }
  if (h.symmetry != MmSymmetry::general && rows != cols)
    fail(name, line,
         fmt::format("{} matrix must be square, the size line says {} x {}",
                     to_string(h.symmetry), rows, cols));
  h.rows = static_cast<index_t>(rows);
  h.cols = static_cast<index_t>(cols);
  h.stored_entries = entries;
}

// Rare forms of an index token (sign, too many digits, garbage); never returns a value
// outside what the token says, the caller checks the range.
[[gnu::cold, gnu::noinline]] std::int64_t read_index_slow(const std::string& name, const char*& p,
                                                          const char* end, std::int64_t line,
                                                          std::string_view what,
                                                          std::int64_t limit) {
  const char* digits = (*p == '+') ? p + 1 : p;
  std::int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(digits, end, v);
  if (ptr == digits || !ends_token(ptr, end))
    fail(name, line, fmt::format("{} must be an integer, found {}", what, quote_token(p, end)));
  if (ec == std::errc::result_out_of_range)
    fail(name, line,
         fmt::format("{} {} out of range [1, {}]", what, quote_token(p, end), limit));
  p = ptr;
  return v;
}

// Indices are plain digit strings in practice; at most 18 digits keep the sum in range,
// anything longer or odd goes to the slow path which reports it.
inline std::int64_t read_index(const std::string& name, const char*& p, const char* end,
                               std::int64_t line, std::string_view what, std::int64_t limit) {
  const char* s = p;
  std::int64_t v = 0;
  while (p != end && is_digit(*p) && p - s < 18) {
    v = v * 10 + (*p - '0');
    ++p;
  }
  if (p == s || !ends_token(p, end)) {
    p = s;
    v = read_index_slow(name, p, end, line, what, limit);
  }
  if (v < 1 || v > limit)
    fail(name, line, fmt::format("{} {} out of range [1, {}]", what, v, limit));
  return v;
}

// Which side of T's range a decimal token falls off when from_chars says out of range:
// the decimal exponent of its leading significant digit decides.
bool token_overflows(const char* s, const char* e) {
  if (s != e && (*s == '+' || *s == '-')) ++s;
  std::int64_t int_digits = 0;    // digits before the point
  std::int64_t first_int = -1;    // index of the first non-zero one among them
  std::int64_t frac_digits = 0;
  std::int64_t first_frac = -1;   // 1-based position of the first non-zero fraction digit
  bool point = false;
  const char* q = s;
  for (; q != e && *q != 'e' && *q != 'E'; ++q) {
    if (*q == '.') {
      point = true;
    } else if (!point) {
      if (*q != '0' && first_int < 0) first_int = int_digits;
      ++int_digits;
    } else {
      ++frac_digits;
      if (*q != '0' && first_frac < 0) first_frac = frac_digits;
    }
  }
  const std::int64_t lead = first_int >= 0 ? int_digits - first_int - 1 : -first_frac;
  std::int64_t exponent = 0;
  if (q != e) {
    ++q;
    const char* digits = (q != e && *q == '+') ? q + 1 : q;
    const auto [ptr, ec] = std::from_chars(digits, e, exponent);
    if (ec == std::errc::result_out_of_range) return *q != '-';
  }
  return exponent + lead > 0;
}

template <class T>
[[gnu::cold, gnu::noinline]] T real_slow(const std::string& name, const char*& p, const char* end,
                                         std::int64_t line) {
  const char* digits = (*p == '+' && p + 1 != end && (is_digit(p[1]) || p[1] == '.')) ? p + 1 : p;
  T v{};
  const auto [ptr, ec] = std::from_chars(digits, end, v);
  if (ptr == digits || !ends_token(ptr, end))
    fail(name, line, fmt::format("value must be a number, found {}", quote_token(p, end)));
  if (ec == std::errc::result_out_of_range) {
    if (token_overflows(digits, ptr))
      fail(name, line,
           fmt::format("value {} out of range of {}", quote_token(p, end),
                       std::is_same_v<T, float> ? "float" : "double"));
    v = (*digits == '-') ? -T(0) : T(0);
  }
  if (!std::isfinite(v))
    fail(name, line, fmt::format("NaN or Inf value {} is not allowed", quote_token(p, end)));
  p = ptr;
  return v;
}

template <class T>
inline T read_real(const std::string& name, const char*& p, const char* end, std::int64_t line) {
  T v{};
  const auto [ptr, ec] = std::from_chars(p, end, v);
  if (ec == std::errc() && ends_token(ptr, end) && std::isfinite(v)) [[likely]] {
    p = ptr;
    return v;
  }
  return real_slow<T>(name, p, end, line);
}

template <class T>
T read_integer(const std::string& name, const char*& p, const char* end, std::int64_t line) {
  const char* digits = (*p == '+') ? p + 1 : p;
  std::int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(digits, end, v);
  if (ptr == digits || !ends_token(ptr, end)) [[unlikely]]
    fail(name, line,
         fmt::format("value must be an integer (the banner says integer), found {}",
                     quote_token(p, end)));
  if (ec == std::errc::result_out_of_range) [[unlikely]]
    fail(name, line, fmt::format("integer value {} out of 64-bit range", quote_token(p, end)));
  p = ptr;
  return static_cast<T>(v);
}

template <class T, MmField F, MmSymmetry S>
void parse_entries(const std::string& name, const char* begin, const char* p, const char* end,
                   std::int64_t line, const MmHeader& h, Coo<T>& out) {
  const std::int64_t declared = h.stored_entries;
  const std::int64_t rows = h.rows;
  const std::int64_t cols = h.cols;
  {
    // The shortest entry line is "1 1\n": a size line claiming more entries than the
    // remaining bytes could hold must not turn into a huge allocation.
    const std::int64_t fit = (end - p) / 4 + 1;
    const auto n = static_cast<std::size_t>(std::min(declared, fit)) *
                   (S == MmSymmetry::general ? 1 : 2);
    out.row.reserve(n);
    out.col.reserve(n);
    out.val.reserve(n);
  }
  std::int64_t count = 0;
  for (;;) {
    p = skip_blanks(p, end);
    if (p == end) break;
    if (*p == '\n') {
      ++p;
      ++line;
      continue;
    }
    if (*p == '%') {
      p = find_eol(p, end);
      continue;
    }
    if (count == declared) [[unlikely]]
      fail(name, line,
           fmt::format("more entries than the {} declared on the size line", declared));
    ++count;

    const auto i = static_cast<index_t>(read_index(name, p, end, line, "row index", rows) - 1);
    p = skip_blanks(p, end);
    if (p == end || *p == '\n') [[unlikely]]
      fail(name, line, "missing column index");
    const auto j = static_cast<index_t>(read_index(name, p, end, line, "column index", cols) - 1);
    T v = T(1);
    if constexpr (F != MmField::pattern) {
      p = skip_blanks(p, end);
      if (p == end || *p == '\n') [[unlikely]]
        fail(name, line, fmt::format("missing value (the banner says {})", to_string(F)));
      if constexpr (F == MmField::real)
        v = read_real<T>(name, p, end, line);
      else
        v = read_integer<T>(name, p, end, line);
    }
    p = skip_blanks(p, end);
    if (p != end && *p != '\n') [[unlikely]]
      fail(name, line,
           fmt::format("unexpected extra token {} (a {} entry line has {} fields)",
                       quote_token(p, end), to_string(F), F == MmField::pattern ? 2 : 3));

    if constexpr (S == MmSymmetry::general) {
      out.push_back(i, j, v);
    } else if constexpr (S == MmSymmetry::symmetric) {
      out.push_back(i, j, v);
      if (i != j) out.push_back(j, i, v);
    } else {
      if (i == j) {
        if (v != T(0)) [[unlikely]]
          fail(name, line,
               fmt::format("non-zero diagonal entry ({}, {}) in a skew-symmetric matrix", i + 1,
                           j + 1));
        out.push_back(i, j, v);
      } else {
        out.push_back(i, j, v);
        out.push_back(j, i, -v);
      }
    }
  }
  if (count < declared)
    fail(name, last_line(begin, end, line),
         fmt::format("fewer entries than declared: the size line says {}, the file has {}",
                     declared, count));
}

template <class T, MmField F>
void dispatch_symmetry(const std::string& name, const char* begin, const char* p, const char* end,
                       std::int64_t line, const MmHeader& h, Coo<T>& out) {
  switch (h.symmetry) {
    case MmSymmetry::general:
      return parse_entries<T, F, MmSymmetry::general>(name, begin, p, end, line, h, out);
    case MmSymmetry::symmetric:
      return parse_entries<T, F, MmSymmetry::symmetric>(name, begin, p, end, line, h, out);
    case MmSymmetry::skew_symmetric:
      return parse_entries<T, F, MmSymmetry::skew_symmetric>(name, begin, p, end, line, h, out);
  }
}

// Inflates a whole gzip file held in memory, members concatenated as gzip(1) allows.
std::string gunzip(const std::string& name, const std::string& data) {
  z_stream zs{};
  if (inflateInit2(&zs, 15 + 16) != Z_OK) throw std::bad_alloc();
  const std::unique_ptr<z_stream, int (*)(z_stream*)> guard(&zs, inflateEnd);

  // The trailer's ISIZE (length mod 2^32) sizes the buffer when it is plausible; a
  // truncated or forged file has garbage there, so beyond 16:1 the buffer grows instead.
  std::size_t guess = data.size() * 4;
  if (data.size() >= 18) {
    const auto* t = reinterpret_cast<const unsigned char*>(data.data() + data.size() - 4);
    const std::size_t isize = t[0] | (t[1] << 8) | (t[2] << 16) | (std::size_t{t[3]} << 24);
    if (isize <= data.size() * 16) guess = isize + 1;
  }
  std::string out(std::max<std::size_t>(guess, 4096), '\0');

  constexpr std::size_t max_chunk = std::size_t{1} << 30;  // avail_in/out are 32-bit
  const auto* in = reinterpret_cast<const unsigned char*>(data.data());
  std::size_t in_left = data.size();
  std::size_t produced = 0;
  for (;;) {
    if (zs.avail_in == 0 && in_left > 0) {
      const std::size_t chunk = std::min(in_left, max_chunk);
      zs.next_in = const_cast<unsigned char*>(in);
      zs.avail_in = static_cast<uInt>(chunk);
      in += chunk;
      in_left -= chunk;
    }
    if (produced == out.size()) out.resize(out.size() * 2);
    const std::size_t room = std::min(out.size() - produced, max_chunk);
    zs.next_out = reinterpret_cast<unsigned char*>(out.data() + produced);
    zs.avail_out = static_cast<uInt>(room);
    const int ret = inflate(&zs, Z_NO_FLUSH);
    produced += room - zs.avail_out;
    if (ret == Z_STREAM_END) {
      if (zs.avail_in == 0 && in_left == 0) break;
      // Trailing bytes must be another member; garbage fails its header check below.
      inflateReset(&zs);
      continue;
    }
    if (ret == Z_OK) continue;
    if (ret == Z_BUF_ERROR && (zs.avail_in > 0 || in_left > 0)) continue;
    if (ret == Z_BUF_ERROR)
      fail(name, 0, "truncated gzip file: the compressed data ends before the end of the stream");
    if (ret == Z_DATA_ERROR)
      fail(name, 0, fmt::format("corrupt gzip data: {}", zs.msg ? zs.msg : "invalid stream"));
    if (ret == Z_MEM_ERROR) throw std::bad_alloc();
    fail(name, 0, fmt::format("gzip: zlib error {}", ret));
  }
  out.resize(produced);
  return out;
}

std::string read_file(const std::string& name, const std::filesystem::path& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) fail(name, 0, fmt::format("cannot open: {}", std::strerror(errno)));
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> guard(f, std::fclose);
  std::error_code ec;
  const auto size_hint = std::filesystem::file_size(path, ec);
  std::string data(ec ? std::size_t{1} << 16 : static_cast<std::size_t>(size_hint) + 1, '\0');
  std::size_t used = 0;
  for (;;) {
    used += std::fread(data.data() + used, 1, data.size() - used, f);
    if (used < data.size()) break;
    data.resize(data.size() * 2);
  }
  if (std::ferror(f)) fail(name, 0, fmt::format("cannot read: {}", std::strerror(errno)));
  data.resize(used);
  return data;
}

bool has_gzip_magic(const std::string& data) {
  return data.size() >= 2 && static_cast<unsigned char>(data[0]) == 0x1f &&
         static_cast<unsigned char>(data[1]) == 0x8b;
}

void write_bytes(const std::filesystem::path& path, std::string_view bytes) {
  const std::string name = path.string();
  const std::string ext = path.extension().string();
  if (ext == ".gz") {
    errno = 0;
    gzFile g = gzopen(path.c_str(), "wb");
    if (!g)
      fail(name, 0,
           fmt::format("cannot open for writing: {}", errno ? std::strerror(errno) : "gzopen"));
    constexpr std::size_t max_chunk = std::size_t{1} << 30;
    for (std::size_t off = 0; off < bytes.size();) {
      const auto chunk = static_cast<unsigned>(std::min(bytes.size() - off, max_chunk));
      if (gzwrite(g, bytes.data() + off, chunk) <= 0) {
        int code = 0;
        const std::string why = gzerror(g, &code);
        gzclose(g);
        fail(name, 0, fmt::format("cannot write: {}", why));
      }
      off += chunk;
    }
    if (gzclose(g) != Z_OK) fail(name, 0, "cannot write: error while closing the gzip stream");
    return;
  }
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) fail(name, 0, fmt::format("cannot open for writing: {}", std::strerror(errno)));
  const bool wrote = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  const int write_errno = errno;
  // fclose flushes; a full disk may only show up here.
  if (std::fclose(f) != 0 || !wrote)
    fail(name, 0, fmt::format("cannot write: {}", std::strerror(wrote ? errno : write_errno)));
}

}  // namespace

InputError::InputError(std::string path, std::int64_t line, std::string message)
    : std::runtime_error(compose_what(path, line, message)),
      path_(std::move(path)),
      line_(line),
      message_(std::move(message)) {}

std::string_view to_string(MmField field) {
  switch (field) {
    case MmField::real: return "real";
    case MmField::integer: return "integer";
    case MmField::pattern: return "pattern";
  }
  return "?";
}

std::string_view to_string(MmSymmetry symmetry) {
  switch (symmetry) {
    case MmSymmetry::general: return "general";
    case MmSymmetry::symmetric: return "symmetric";
    case MmSymmetry::skew_symmetric: return "skew-symmetric";
  }
  return "?";
}

template <class T>
MmMatrix<T> parse_matrix_market(std::string_view text, const std::string& name) {
  if (text.empty()) fail(name, 0, "empty file");
  const char* const begin = text.data();
  const char* const end = begin + text.size();
  const char* p = begin;
  // Editors on Windows may prepend a UTF-8 byte order mark.
  if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF") p += 3;

  MmMatrix<T> m;
  m.header = parse_banner(name, p, end);
  std::int64_t line = 1;
  parse_size_line(name, begin, p, end, line, m.header);
  m.coo.rows = m.header.rows;
  m.coo.cols = m.header.cols;
  const std::int64_t size_line = line;

  switch (m.header.field) {
    case MmField::real:
      dispatch_symmetry<T, MmField::real>(name, begin, p, end, line, m.header, m.coo);
      break;
    case MmField::integer:
      dispatch_symmetry<T, MmField::integer>(name, begin, p, end, line, m.header, m.coo);
      break;
    case MmField::pattern:
      dispatch_symmetry<T, MmField::pattern>(name, begin, p, end, line, m.header, m.coo);
      break;
  }
  // Mirroring can double the count; CSR offsets are 32-bit too.
  if (m.coo.nnz() > static_cast<std::size_t>(std::numeric_limits<index_t>::max()))
    fail(name, size_line,
         fmt::format("the expanded matrix has {} entries, which does not fit 32-bit indices",
                     m.coo.nnz()));
  return m;
}

template <class T>
MmMatrix<T> read_matrix_market(const std::filesystem::path& path) {
  const std::string name = path.string();
  std::string data = read_file(name, path);
  if (has_gzip_magic(data)) data = gunzip(name, data);
  return parse_matrix_market<T>(data, name);
}

template <class T>
Csr<T> read_csr(const std::filesystem::path& path) {
  return coo_to_csr(read_matrix_market<T>(path).coo);
}

template <class T>
std::string format_matrix_market(const Csr<T>& a, MmField field) {
  if (a.rows < 0 || a.cols < 0 || a.row_ptr.size() != static_cast<std::size_t>(a.rows) + 1 ||
      a.col.size() != a.val.size() || static_cast<std::size_t>(a.row_ptr.back()) != a.col.size())
    throw std::invalid_argument("format_matrix_market: inconsistent Csr (row_ptr/col/val sizes)");
  std::string out;
  out.reserve(64 + a.nnz() * (field == MmField::pattern ? 16 : 40));
  out += fmt::format("%%MatrixMarket matrix coordinate {} general\n{} {} {}\n", to_string(field),
                     a.rows, a.cols, a.nnz());
  // Big enough for two indices and the longest shortest-form double (24 chars). Numbers
  // end one byte short of the buffer, so the separator or newline after each always fits
  // (even if a to_chars failed and returned its end; g++ 13 warned of that case).
  char buf[96];
  char* const buf_end = buf + sizeof buf - 1;
  for (index_t r = 0; r < a.rows; ++r) {
    for (index_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) {
      char* q = std::to_chars(buf, buf_end, r + 1).ptr;
      *q++ = ' ';
      q = std::to_chars(q, buf_end, a.col[k] + 1).ptr;
      const T v = a.val[k];
      if (field != MmField::pattern) {
        // The reader refuses these, so writing them would break the round trip.
        if (!std::isfinite(v))
          throw std::invalid_argument(fmt::format(
              "format_matrix_market: entry ({}, {}) is NaN or Inf", r + 1, a.col[k] + 1));
        *q++ = ' ';
        if (field == MmField::real) {
          q = std::to_chars(q, buf_end, v).ptr;
        } else {
          constexpr T lim = static_cast<T>(std::numeric_limits<std::int64_t>::max());
          if (std::trunc(v) != v || v >= lim || v < -lim)
            throw std::invalid_argument(fmt::format(
                "format_matrix_market: entry ({}, {}) = {} is not an integer", r + 1,
                a.col[k] + 1, v));
          q = std::to_chars(q, buf_end, static_cast<std::int64_t>(v)).ptr;
        }
      }
      *q++ = '\n';
      out.append(buf, q);
    }
  }
  return out;
}

template <class T>
void write_matrix_market(const std::filesystem::path& path, const Csr<T>& a, MmField field) {
  write_bytes(path, format_matrix_market(a, field));
}

template MmMatrix<float> parse_matrix_market<float>(std::string_view, const std::string&);
template MmMatrix<double> parse_matrix_market<double>(std::string_view, const std::string&);
template MmMatrix<float> read_matrix_market<float>(const std::filesystem::path&);
template MmMatrix<double> read_matrix_market<double>(const std::filesystem::path&);
template Csr<float> read_csr<float>(const std::filesystem::path&);
template Csr<double> read_csr<double>(const std::filesystem::path&);
template std::string format_matrix_market<float>(const Csr<float>&, MmField);
template std::string format_matrix_market<double>(const Csr<double>&, MmField);
template void write_matrix_market<float>(const std::filesystem::path&, const Csr<float>&, MmField);
template void write_matrix_market<double>(const std::filesystem::path&, const Csr<double>&,
                                          MmField);

}  // namespace apiary::sparse
