// `apiary info MATRIX [--json]`: the structural facts that decide how a matrix will
// behave in the GPU applications (level count and width for triangular solves,
// components and bandwidth for RCM), computed with the host reference library.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "apps/commands.hpp"
#include "apps/matrix_source.hpp"
#include "sparse/analysis.hpp"
#include "sparse/generators.hpp"
#include "sparse/rcm.hpp"
#include "sparse/transform.hpp"

namespace apiary::cli {

namespace {

using sparse::index_t;

struct RcmFacts {
  bool symmetrized = false;  // ordered A + A^T because A's pattern is unsymmetric
  index_t bandwidth = 0;
  std::int64_t profile = 0;
  index_t tril_levels = 0;
  double seconds = 0;
};

// Facts that only exist for square matrices; absent for rectangular ones.
struct SquareFacts {
  bool pattern_symmetric = false;
  bool values_symmetric = false;
  std::vector<index_t> missing_diagonals;
  sparse::LevelSets tril_levels;
  index_t components = 0;
  index_t largest_component = 0;
  std::int64_t profile = 0;  // of A + A^T when A is unsymmetric, so it compares with RCM's
  RcmFacts rcm;
};

struct MatrixFacts {
  sparse::DegreeStats degrees;
  index_t bandwidth = 0;
  std::optional<SquareFacts> square;
};

// Short durations in a unit that keeps three significant digits readable.
std::string format_duration(double seconds) {
  if (seconds < 1e-3) return fmt::format("{:.1f} us", seconds * 1e6);
  if (seconds < 1.0) return fmt::format("{:.1f} ms", seconds * 1e3);
  return fmt::format("{:.2f} s", seconds);
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

SquareFacts analyze_square(const sparse::Csr<double>& a) {
  SquareFacts f;
  f.pattern_symmetric = sparse::is_pattern_symmetric(a);
  f.values_symmetric = f.pattern_symmetric && sparse::is_symmetric(a);
  f.missing_diagonals = sparse::missing_diagonals(a);
  f.tril_levels = sparse::level_sets(a, sparse::Triangle::lower);
  const sparse::Components c = sparse::weakly_connected_components(a);
  f.components = c.count;
  for (index_t s : c.size) f.largest_component = std::max(f.largest_component, s);

  // RCM is only meaningful on a symmetric pattern (see sparse/rcm.hpp).
  std::optional<sparse::Csr<double>> symmetrized;
  if (!f.pattern_symmetric) symmetrized = sparse::symmetrize_pattern(a);
  const sparse::Csr<double>& graph = symmetrized ? *symmetrized : a;
  f.profile = sparse::profile(graph);

  const auto start = std::chrono::steady_clock::now();
  const sparse::RcmResult r = sparse::rcm(graph);
  f.rcm.seconds = seconds_since(start);
  f.rcm.symmetrized = symmetrized.has_value();
  const sparse::Csr<double> reordered_graph = sparse::permute_symmetric(graph, r.perm);
  f.rcm.bandwidth = sparse::bandwidth(reordered_graph);
  f.rcm.profile = sparse::profile(reordered_graph);
  // The levels of tril(P A P^T) need A itself: the symmetrized graph has more edges.
  f.rcm.tril_levels =
      symmetrized
          ? sparse::level_sets(sparse::permute_symmetric(a, r.perm), sparse::Triangle::lower).count
          : sparse::level_sets(reordered_graph, sparse::Triangle::lower).count;
  return f;
}

MatrixFacts analyze(const sparse::Csr<double>& a) {
  MatrixFacts f;
  f.degrees = sparse::degree_stats(a);
  f.bandwidth = sparse::bandwidth(a);
  if (a.is_square()) f.square = analyze_square(a);
  return f;
}

constexpr const char* kSkippedReason =
    "symmetry, diagonal, levels, components, profile and RCM need a square matrix";

std::string symmetry_text(const LoadedMatrix& m, const SquareFacts& s) {
  std::string computed = s.values_symmetric    ? "pattern and values symmetric"
                         : s.pattern_symmetric ? "pattern symmetric, values not"
                                               : "pattern unsymmetric";
  if (!m.header) return computed;
  return fmt::format("{} {} (header); {}", sparse::to_string(m.header->symmetry),
                     sparse::to_string(m.header->field), computed);
}

std::string diagonal_text(const std::vector<index_t>& missing) {
  if (missing.empty()) return "all present";
  return fmt::format("{} missing (first at row {}, 0-based)", missing.size(), missing.front());
}

std::string read_text(const LoadedMatrix& m) {
  if (m.source == "generator") return "generated in " + format_duration(m.read_seconds);
  const double mb = static_cast<double>(m.bytes) / 1e6;
  return fmt::format("{}, {:.2f} MB as stored, {:.1f} MB/s", format_duration(m.read_seconds), mb,
                     m.read_seconds > 0 ? mb / m.read_seconds : 0.0);
}

void print_human(const LoadedMatrix& m, const MatrixFacts& f, std::ostream& out) {
  const auto line = [&](std::string_view key, const std::string& value) {
    out << fmt::format("{:<14}{}\n", key, value);
  };
  const auto& a = m.a;
  line("matrix", m.source == "file" ? fmt::format("{} (file {})", m.name, m.spec)
                                    : fmt::format("{} (generator)", m.name));
  line("size", fmt::format("{} x {}, {} non-zeros ({:.1f} per row; min {}, max {}, {} empty rows)",
                           a.rows, a.cols, a.nnz(), f.degrees.mean, f.degrees.min, f.degrees.max,
                           f.degrees.empty_rows));
  if (f.square) {
    const SquareFacts& s = *f.square;
    line("symmetry", symmetry_text(m, s));
    line("diagonal", diagonal_text(s.missing_diagonals));
    line("levels tril", fmt::format("{} (widest {}), {} after RCM", s.tril_levels.count,
                                    s.tril_levels.max_width(), s.rcm.tril_levels));
    line("components", s.components == 1
                           ? std::string("1")
                           : fmt::format("{} (largest {} rows)", s.components,
                                         s.largest_component));
    line("bandwidth", fmt::format("{} -> {} after RCM (profile {} -> {}), RCM {}", f.bandwidth,
                                  s.rcm.bandwidth, s.profile, s.rcm.profile,
                                  format_duration(s.rcm.seconds)));
    if (s.rcm.symmetrized)
      line("", "pattern unsymmetric: profile and RCM are those of A + A^T");
  } else {
    line("bandwidth", fmt::format("{}", f.bandwidth));
    line("skipped", kSkippedReason);
  }
  line("read", read_text(m));
}

nlohmann::ordered_json to_json(const LoadedMatrix& m, const MatrixFacts& f) {
  nlohmann::ordered_json j;
  j["matrix"] = m.name;
  j["source"] = m.source;
  if (m.source == "file") j["path"] = m.spec;
  j["rows"] = m.a.rows;
  j["cols"] = m.a.cols;
  j["nnz"] = m.a.nnz();
  j["row_nnz"] = {{"min", f.degrees.min},
                  {"mean", f.degrees.mean},
                  {"max", f.degrees.max},
                  {"empty_rows", f.degrees.empty_rows}};
  if (m.header) {
    j["header"] = {{"field", std::string(sparse::to_string(m.header->field))},
                   {"symmetry", std::string(sparse::to_string(m.header->symmetry))},
                   {"stored_entries", m.header->stored_entries}};
  }
  j["bandwidth"] = f.bandwidth;
  if (f.square) {
    const SquareFacts& s = *f.square;
    j["pattern_symmetric"] = s.pattern_symmetric;
    j["values_symmetric"] = s.values_symmetric;
    j["missing_diagonals"] = s.missing_diagonals.size();
    j["tril_levels"] = s.tril_levels.count;
    j["tril_max_level_width"] = s.tril_levels.max_width();
    j["components"] = s.components;
    j["largest_component"] = s.largest_component;
    j["profile"] = s.profile;
    j["rcm"] = {{"symmetrized", s.rcm.symmetrized},
                {"bandwidth", s.rcm.bandwidth},
                {"profile", s.rcm.profile},
                {"tril_levels", s.rcm.tril_levels},
                {"seconds", s.rcm.seconds}};
  } else {
    j["skipped"] = kSkippedReason;
  }
  j["read_seconds"] = m.read_seconds;
  if (m.source == "file") {
    j["bytes"] = m.bytes;
    j["read_mb_per_s"] =
        m.read_seconds > 0 ? static_cast<double>(m.bytes) / 1e6 / m.read_seconds : 0.0;
  }
  return j;
}

}  // namespace

void print_info(const LoadedMatrix& m, bool json, std::ostream& out) {
  const MatrixFacts facts = analyze(m.a);
  if (json)
    out << to_json(m, facts).dump(2) << '\n';
  else
    print_human(m, facts, out);
}

void add_info_command(CLI::App& app) {
  struct Options {
    std::string matrix;
    bool json = false;
  };
  // Owned by the callback, which CLI11 keeps alive as long as the app.
  auto opts = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "info", "Print the structure of a matrix: size, symmetry, diagonal, levels, "
              "components, bandwidth/profile before and after RCM");
  cmd->add_option("MATRIX", opts->matrix, kMatrixArgumentHelp)->required();
  cmd->add_flag("--json", opts->json, "Print one JSON object instead of aligned text");
  cmd->footer(sparse::generator_help());
  cmd->callback([opts] { print_info(load_matrix(opts->matrix), opts->json, std::cout); });
}

}  // namespace apiary::cli
