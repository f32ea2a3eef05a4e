#include "apps/matrix_source.hpp"

#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <string_view>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "sparse/convert.hpp"
#include "sparse/generators.hpp"

namespace apiary::cli {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kFormsHint = "'apiary info --help' lists the generator forms";

std::string first_line(std::string_view text) {
  return std::string(text.substr(0, text.find('\n')));
}

std::string display_name(const fs::path& path) {
  std::string name = path.filename().string();
  for (std::string_view suffix : {".gz", ".mtx"})
    if (name.size() > suffix.size() && name.ends_with(suffix))
      name.resize(name.size() - suffix.size());
  return name;
}

}  // namespace

LoadedMatrix load_matrix(const std::string& spec) {
  LoadedMatrix m;
  m.spec = spec;
  const auto start = std::chrono::steady_clock::now();
  if (sparse::is_generator_spec(spec)) {
    try {
      m.a = sparse::generate<double>(spec);
    } catch (const std::invalid_argument& e) {
      // generate() appends the whole multi-line form list; the CLI reports one line.
      throw std::invalid_argument(fmt::format("{} ({})", first_line(e.what()), kFormsHint));
    }
    m.name = spec;
    m.source = "generator";
  } else {
    const fs::path path(spec);
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (!fs::exists(status)) {
      // "foo:3" was probably meant as a generator: say that the name is the problem.
      const std::size_t colon = spec.find(':');
      const std::string not_a_generator =
          colon == std::string::npos || colon == 0
              ? std::string()
              : fmt::format(", and '{}' is not a generator name", spec.substr(0, colon));
      throw std::runtime_error(fmt::format(
          "{}: no such file{}; MATRIX is a Matrix Market file (.mtx, .mtx.gz) or a generated "
          "matrix such as poisson2d:1000 ({})",
          spec, not_a_generator, kFormsHint));
    }
    if (fs::is_directory(status))
      throw std::runtime_error(
          fmt::format("{}: is a directory, not a Matrix Market file", spec));
    m.bytes = fs::file_size(path, ec);
    if (ec) m.bytes = 0;  // the reader reports unreadable files with a better message
    auto mm = sparse::read_matrix_market<double>(path);
    m.header = mm.header;
    m.a = sparse::coo_to_csr(mm.coo);
    m.name = display_name(path);
    m.source = "file";
  }
  m.read_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return m;
}

}  // namespace apiary::cli
