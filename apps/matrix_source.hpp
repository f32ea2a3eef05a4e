// Where the CLI's matrices come from: a Matrix Market file or a generator spec
// (sparse::generator_help() lists the forms). Every command that takes a MATRIX
// argument goes through load_matrix, so they all accept the same inputs and fail
// with the same messages.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "sparse/formats.hpp"
#include "sparse/matrix_market.hpp"

namespace apiary::cli {

struct LoadedMatrix {
  sparse::Csr<double> a;  // sorted rows, duplicates summed, symmetric files expanded
  std::string name;       // file name without .mtx/.mtx.gz, or the generator spec
  std::string spec;       // as given on the command line
  std::string source;     // "file" or "generator"
  std::optional<sparse::MmHeader> header;  // files only: declared field and symmetry
  double read_seconds = 0;                 // read + parse + CSR conversion, or generation
  std::uint64_t bytes = 0;                 // size of the file as stored (0 for generators)
};

// Throws on any user error with a one-line what(): sparse::InputError (file:line) for a
// malformed file, std::invalid_argument for a bad spec (with a pointer to the forms),
// std::runtime_error for a path that does not exist or is not a file, sparse::SizeError
// for sizes beyond 32-bit indices.
LoadedMatrix load_matrix(const std::string& spec);

}  // namespace apiary::cli
