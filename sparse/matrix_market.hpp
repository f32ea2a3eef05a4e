// Matrix Market (.mtx, .mtx.gz) reader and writer.
//
// Accepted: "%%MatrixMarket matrix coordinate real|integer|pattern
// general|symmetric|skew-symmetric" (banner words case-insensitive), comment (%) and
// blank lines anywhere after the banner, CRLF line ends, gzip input detected by its magic
// bytes. Refused with a message naming what is supported: array format, complex field,
// hermitian symmetry. Every defect of a file is an InputError carrying the file name and
// the 1-based line, so that a user can open the file at the right place.
//
// Conventions a caller must know:
//  - The Coo returned holds the expanded matrix: for symmetric files an off-diagonal
//    (i,j,v) also yields (j,i,v), for skew-symmetric (j,i,-v). Either triangle is accepted
//    as the stored one; a file that lists both (i,j) and (j,i) is not rejected, the
//    mirrored entries become duplicates.
//  - Duplicate entries are allowed and kept in the Coo; read_csr (through coo_to_csr)
//    sums them, as MATLAB's sparse() and SciPy do.
//  - Pattern entries get the value 1. Pattern skew-symmetric (which mmio refuses) is read
//    as +1 at (i,j) and -1 at (j,i); a diagonal entry there is an error like any non-zero
//    diagonal of a skew-symmetric file. An explicit 0 on a skew-symmetric diagonal is kept.
//  - Values are parsed directly in T with correct rounding (for float this avoids the
//    double rounding of going through double). A finite value beyond T's range is an
//    error; one too small for T becomes a signed zero. NaN and Inf are refused.
//  - The writer emits a "general" coordinate file whose values are the shortest decimal
//    form that reads back to the same bits, so parse(format(A)) reproduces A exactly.
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

#include "sparse/formats.hpp"

namespace apiary::sparse {

// Every error a user can cause with a file. what() is "<path>:<line>: <message>", with
// ":<line>" left out when line == 0 (errors about the whole file: gzip, empty, I/O).
class InputError : public std::runtime_error {
 public:
  InputError(std::string path, std::int64_t line, std::string message);

  const std::string& path() const { return path_; }
  std::int64_t line() const { return line_; }
  const std::string& message() const { return message_; }

 private:
  std::string path_;
  std::int64_t line_;
  std::string message_;
};

enum class MmField { real, integer, pattern };
enum class MmSymmetry { general, symmetric, skew_symmetric };

std::string_view to_string(MmField field);
std::string_view to_string(MmSymmetry symmetry);

// What the banner and size line declared; stored_entries counts entry lines, not the
// entries of the expanded matrix.
struct MmHeader {
  MmField field = MmField::real;
  MmSymmetry symmetry = MmSymmetry::general;
  index_t rows = 0;
  index_t cols = 0;
  std::int64_t stored_entries = 0;
};

template <class T>
struct MmMatrix {
  MmHeader header;
  Coo<T> coo;  // expanded, 0-based, in file order (mirrors right after their source)
};

// Parses Matrix Market text already in memory; name is used in error messages only.
template <class T>
MmMatrix<T> parse_matrix_market(std::string_view text, const std::string& name);

// Reads a plain or gzip-compressed file (decided by the content, not the extension).
template <class T>
MmMatrix<T> read_matrix_market(const std::filesystem::path& path);

// read_matrix_market + coo_to_csr: sorted rows, duplicates summed.
template <class T>
Csr<T> read_csr(const std::filesystem::path& path);

// A "general" coordinate file, 1-based. field == pattern omits values; field == integer
// writes integers and throws std::invalid_argument for a value that is not one.
template <class T>
std::string format_matrix_market(const Csr<T>& a, MmField field = MmField::real);

// Writes format_matrix_market(a, field) to path, gzip-compressed when path ends in ".gz".
// Failure to open or write throws InputError with line 0.
template <class T>
void write_matrix_market(const std::filesystem::path& path, const Csr<T>& a,
                         MmField field = MmField::real);

}  // namespace apiary::sparse
