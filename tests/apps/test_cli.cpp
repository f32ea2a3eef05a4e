// Runs the built `apiary` binary (APIARY_EXE) as a user would and checks what it prints
// and the exit code. Every user error must produce exactly one line on stderr and exit
// code 1, so these tests look at stdout and stderr separately.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "runtime/device.hpp"
#include "tests/apps/run_apiary.hpp"

namespace {

namespace fs = std::filesystem;

using apiary::testing::run_apiary;
using apiary::testing::RunResult;

std::size_t count_lines(const std::string& s) {
  return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n'));
}

// The one-line error contract: exit 1, nothing on stdout, one "apiary: error:" line.
void expect_one_line_error(const RunResult& r, const std::string& context) {
  EXPECT_EQ(r.exit_code, 1) << context << "\nstderr: " << r.err;
  EXPECT_EQ(count_lines(r.err), 1u) << context << "\nstderr: " << r.err;
  EXPECT_TRUE(r.err.starts_with("apiary: error: ")) << context << "\nstderr: " << r.err;
  EXPECT_TRUE(r.out.empty()) << context << "\nstdout: " << r.out;
}

nlohmann::json parse_json(const RunResult& r) {
  try {
    return nlohmann::json::parse(r.out);
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not JSON (" << e.what() << "):\n" << r.out;
    return {};
  }
}

TEST(Cli, HelpListsSubcommands) {
  const RunResult r = run_apiary({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("info"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("demo"), std::string::npos) << r.out;
}

TEST(Cli, InfoHelpListsGeneratorForms) {
  const RunResult r = run_apiary({"info", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("poisson2d:N"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--json"), std::string::npos) << r.out;
}

TEST(Cli, VersionFlag) {
  const RunResult r = run_apiary({"--version"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("apiary "), std::string::npos) << r.out;
}

TEST(Cli, CommandLineMistakesExitNonZero) {
  EXPECT_NE(run_apiary({}).exit_code, 0);
  EXPECT_NE(run_apiary({"no-such-command"}).exit_code, 0);
  EXPECT_NE(run_apiary({"info"}).exit_code, 0);  // MATRIX is required
  EXPECT_NE(run_apiary({"info", "poisson2d:3", "--no-such-option"}).exit_code, 0);
}

// A 30 x 30 5-point grid: 900 rows, 900 * 5 - 4 * 30 = 4380 entries, tril levels
// 2 * 30 - 1 = 59 (anti-diagonals), widest 30, bandwidth 30.
TEST(Cli, InfoHumanPoisson) {
  const RunResult r = run_apiary({"info", "poisson2d:30"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  const auto has_line = [&](const std::string& pattern) {
    return std::regex_search(r.out, std::regex("(^|\n)" + pattern));
  };
  EXPECT_TRUE(has_line(R"(matrix +poisson2d:30 \(generator\))")) << r.out;
  EXPECT_TRUE(has_line(R"(size +900 x 900, 4380 non-zeros .*min 3, max 5, 0 empty rows)")) << r.out;
  EXPECT_TRUE(has_line(R"(symmetry +pattern and values symmetric)")) << r.out;
  EXPECT_TRUE(has_line(R"(diagonal +all present)")) << r.out;
  EXPECT_TRUE(has_line(R"(levels tril +59 \(widest 30\))")) << r.out;
  EXPECT_TRUE(has_line(R"(components +1\n)")) << r.out;
  EXPECT_TRUE(has_line(R"(bandwidth +30 -> \d+ after RCM)")) << r.out;
}

TEST(Cli, InfoJsonPoisson) {
  const RunResult r = run_apiary({"info", "poisson2d:30", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = parse_json(r);
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j["matrix"], "poisson2d:30");
  EXPECT_EQ(j["source"], "generator");
  EXPECT_EQ(j["rows"], 900);
  EXPECT_EQ(j["cols"], 900);
  EXPECT_EQ(j["nnz"], 4380);
  EXPECT_EQ(j["tril_levels"], 59);
  EXPECT_EQ(j["tril_max_level_width"], 30);
  EXPECT_EQ(j["components"], 1);
  EXPECT_EQ(j["bandwidth"], 30);
  EXPECT_EQ(j["missing_diagonals"], 0);
  EXPECT_EQ(j["pattern_symmetric"], true);
  EXPECT_EQ(j["values_symmetric"], true);
  EXPECT_EQ(j["row_nnz"]["min"], 3);
  EXPECT_EQ(j["row_nnz"]["max"], 5);
  EXPECT_EQ(j["row_nnz"]["empty_rows"], 0);
  EXPECT_EQ(j["rcm"]["symmetrized"], false);
  EXPECT_TRUE(j["rcm"]["bandwidth"].is_number_integer());
  EXPECT_TRUE(j["rcm"]["seconds"].is_number());
  EXPECT_TRUE(j["read_seconds"].is_number());
}

TEST(Cli, InfoUnsymmetricGeneratorSaysRcmUsesSymmetrizedPattern) {
  const RunResult r = run_apiary({"info", "dd:200:2:6:3"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("A + A^T"), std::string::npos) << r.out;
  const nlohmann::json j = parse_json(run_apiary({"info", "dd:200:2:6:3", "--json"}));
  EXPECT_EQ(j["pattern_symmetric"], false);
  EXPECT_EQ(j["rcm"]["symmetrized"], true);
}

TEST(Cli, InfoRectangularFileSkipsSquareOnlyFacts) {
  const fs::path path = fs::path(testing::TempDir()) / "apiary_cli_rectangular.mtx";
  std::ofstream(path) << "%%MatrixMarket matrix coordinate real general\n"
                         "3 5 4\n1 1 1\n2 5 2\n3 2 3\n3 3 1\n";
  const RunResult r = run_apiary({"info", path.string()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("3 x 5, 4 non-zeros"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("need a square matrix"), std::string::npos) << r.out;
  const nlohmann::json j = parse_json(run_apiary({"info", path.string(), "--json"}));
  EXPECT_EQ(j["rows"], 3);
  EXPECT_EQ(j["cols"], 5);
  EXPECT_EQ(j["bandwidth"], 3);
  EXPECT_FALSE(j.contains("tril_levels"));
  EXPECT_TRUE(j.contains("skipped"));
  fs::remove(path);
}

struct Expected {
  long line = 0;
  std::string message;
};

std::map<std::string, Expected> read_expected(const fs::path& catalogue) {
  std::map<std::string, Expected> out;
  std::ifstream in(catalogue);
  std::string text;
  while (std::getline(in, text)) {
    if (text.empty() || text[0] == '#') continue;
    std::istringstream fields(text);
    std::string name, line, message;
    std::getline(fields, name, '\t');
    std::getline(fields, line, '\t');
    std::getline(fields, message);
    out[name] = Expected{std::stol(line), message};
  }
  return out;
}

TEST(Cli, EveryBrokenFileGivesOneLineAndExitOne) {
  const fs::path dir = fs::path(APIARY_TEST_DATA) / "broken";
  const auto expected = read_expected(dir / "EXPECTED.txt");
  ASSERT_FALSE(expected.empty());
  int checked = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name == "EXPECTED.txt") continue;
    const auto it = expected.find(name);
    ASSERT_NE(it, expected.end()) << name << " is not listed in EXPECTED.txt";
    const RunResult r = run_apiary({"info", entry.path().string()});
    expect_one_line_error(r, name);
    const std::string where =
        it->second.line > 0 ? name + ":" + std::to_string(it->second.line) + ":" : name + ":";
    EXPECT_NE(r.err.find(where), std::string::npos) << "expected '" << where << "' in: " << r.err;
    EXPECT_NE(r.err.find(it->second.message), std::string::npos)
        << "expected '" << it->second.message << "' in: " << r.err;
    ++checked;
  }
  EXPECT_EQ(checked, static_cast<int>(expected.size())) << "files listed but missing";
}

TEST(Cli, MissingFileGivesOneLineNamingIt) {
  const RunResult r = run_apiary({"info", "/no/such/dir/matrix.mtx"});
  expect_one_line_error(r, "missing file");
  EXPECT_NE(r.err.find("/no/such/dir/matrix.mtx"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("no such file"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("poisson2d:"), std::string::npos) << "no hint at generators: " << r.err;
}

TEST(Cli, DirectoryGivesOneLine) {
  expect_one_line_error(run_apiary({"info", testing::TempDir()}), "directory");
}

TEST(Cli, BadGeneratorSpecsGiveOneLine) {
  for (const std::string spec : {"poisson2d:abc", "poisson2d:0", "spd:10", "dag:10:20",
                                 "poisson2d:100000", "banded:10:1:1:2:3", "nosuchgen:3"}) {
    const RunResult r = run_apiary({"info", spec});
    expect_one_line_error(r, spec);
    EXPECT_NE(r.err.find(spec), std::string::npos) << r.err;
  }
  // Sizes beyond 32-bit indices are refused before anything is allocated.
  const RunResult big = run_apiary({"info", "poisson3d:2000"});
  expect_one_line_error(big, "poisson3d:2000");
  EXPECT_NE(big.err.find("32-bit"), std::string::npos) << big.err;
}

TEST(Cli, DemoWithoutGpuRunsHostPart) {
  const RunResult r = run_apiary({"demo"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  if (!apiary::no_device_reason()) return;  // a GPU machine prints device-specific output
  const std::string all = r.out + r.err;
  EXPECT_EQ(count_lines(r.err), 1u) << r.err;
  const std::regex notice(
      R"((^|\n)apiary: no GPU available \(.+\); running the host-side part only\n)");
  EXPECT_TRUE(std::regex_search(all, notice)) << all;
  EXPECT_NE(r.out.find("poisson2d:1000 (generator)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1000000 x 1000000, 4996000 non-zeros"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1999 (widest 1000)"), std::string::npos) << r.out;
}

TEST(Cli, DemoMatrixOption) {
  const RunResult r = run_apiary({"demo", "--matrix", "poisson2d:30"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("900 x 900, 4380 non-zeros"), std::string::npos) << r.out;
  expect_one_line_error(run_apiary({"demo", "--matrix", "nosuch.mtx"}), "demo bad matrix");
}

TEST(Cli, SptrsvBadInputGivesOneLine) {
  const RunResult full = run_apiary({"sptrsv", "poisson2d:10"});
  expect_one_line_error(full, "sptrsv full matrix");
  EXPECT_NE(full.err.find("not triangular"), std::string::npos) << full.err;
  EXPECT_NE(full.err.find("--lower or --upper"), std::string::npos) << full.err;
  expect_one_line_error(run_apiary({"sptrsv", "poisson2d:10", "--lower", "--nmax", "zero"}), "sptrsv --nmax");
  const RunResult threads = run_apiary({"sptrsv", "poisson2d:10", "--lower", "--threads", "300"});
  expect_one_line_error(threads, "sptrsv --threads");
  EXPECT_NE(threads.err.find("--threads takes 256, 512 or 'auto'"), std::string::npos) << threads.err;
  const RunResult split = run_apiary({"sptrsv", "poisson2d:10", "--lower", "--split", "levels"});
  expect_one_line_error(split, "sptrsv --split");
  EXPECT_NE(split.err.find("--split takes heuristic, bands, tiles or 'auto'"), std::string::npos) << split.err;
  expect_one_line_error(run_apiary({"sptrsv", "poisson2d:10", "--lower", "--variant", "magic"}), "sptrsv --variant");
  expect_one_line_error(run_apiary({"sptrsv", "poisson2d:10", "--lower", "--precision", "half"}),
                        "sptrsv --precision");
  expect_one_line_error(run_apiary({"sptrsv", "nosuch.mtx"}), "sptrsv missing file");
  EXPECT_NE(run_apiary({"sptrsv", "poisson2d:10", "--lower", "--upper"}).exit_code, 0);
}

// Without a GPU: one clear line. With one: every variant solves, verified by its residual.
TEST(Cli, SptrsvSolvesWithEveryVariant) {
  const RunResult r = run_apiary({"sptrsv", "poisson2d:60", "--lower", "--reps", "2", "--json"});
  if (const auto reason = apiary::no_device_reason()) {
    expect_one_line_error(r, "sptrsv without GPU");
    EXPECT_NE(r.err.find("no GPU available"), std::string::npos) << r.err;
    return;
  }
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = parse_json(r);
  EXPECT_EQ(j["n"], 3600);
  EXPECT_TRUE(j["threads"] == 256 || j["threads"] == 512) << j.dump(2);
  EXPECT_TRUE(j["split"] == "heuristic" || j["split"] == "bands" || j["split"] == "tiles") << j.dump(2);
  EXPECT_EQ(j["candidate_splits"].size(), j["n_max_candidates"].size()) << j.dump(2);
  ASSERT_EQ(j["results"].size(), 6u) << j.dump(2);
  for (const auto& res : j["results"]) {
    EXPECT_FALSE(res.contains("error")) << res.dump();
    EXPECT_LT(res.value("residual", 1.0), 1e-10) << res.dump();
  }
}

// The host's analysis alone runs anywhere, GPU or not: the plan chosen and the model's
// candidates, as text and as JSON (without results); options of the solves are refused.
TEST(Cli, SptrsvAnalysisOnlyNeedsNoGpu) {
  const RunResult r = run_apiary({"sptrsv", "poisson3d:40", "--lower", "--analysis-only"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  EXPECT_NE(r.out.find("lower triangular system, n 64000"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("analysis "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(the model's candidates; * kept)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("pruned: its levels alone are above"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("vs cuSPARSE"), std::string::npos) << r.out;  // no variant ran
  const RunResult j = run_apiary({"sptrsv", "poisson3d:40", "--lower", "--analysis-only", "--json"});
  ASSERT_EQ(j.exit_code, 0) << j.err;
  const nlohmann::json doc = parse_json(j);
  EXPECT_EQ(doc["n"], 64000);
  EXPECT_EQ(doc["matrix"], "poisson3d:40");
  EXPECT_FALSE(doc.contains("results")) << doc.dump(2);
  ASSERT_EQ(doc["candidate_pruned"].size(), doc["n_max_candidates"].size()) << doc.dump(2);
  int pruned = 0;
  for (const auto& p : doc["candidate_pruned"]) pruned += p.get<bool>();
  EXPECT_GT(pruned, 0) << doc.dump(2);
  EXPECT_GT(doc["pruned_above_ms"].get<double>(), 0.0) << doc.dump(2);
  // Bad input is still one line; options of the solves do not go with it.
  expect_one_line_error(run_apiary({"sptrsv", "poisson2d:10", "--analysis-only"}), "sptrsv --analysis-only full");
  EXPECT_NE(run_apiary({"sptrsv", "poisson2d:10", "--lower", "--analysis-only", "--reps", "3"}).exit_code, 0);
  EXPECT_NE(run_apiary({"sptrsv", "poisson2d:10", "--lower", "--analysis-only", "--variant", "cusparse"}).exit_code,
            0);
}

// ---- real matrices from ../shared/matrices ----------------------------------------

fs::path shared_matrices() { return fs::path(APIARY_SHARED_MATRICES); }

#define SKIP_WITHOUT_SHARED_MATRICES()                                                \
  do {                                                                                \
    if (!fs::is_directory(shared_matrices()))                                         \
      GTEST_SKIP() << "shared matrices not found at " << shared_matrices().string() \
                   << " (set -DAPIARY_SHARED_MATRICES=...)";                         \
  } while (0)

// The facts the README of the shared folder lists per file, parsed from its tables.
struct ReadmeRow {
  long rows = 0;
  long cols = 0;
  long nnz = 0;
  long missing_diagonals = 0;
  long tril_levels = 0;
  long bandwidth = 0;
};

std::map<std::string, ReadmeRow> read_readme(const fs::path& readme) {
  std::map<std::string, ReadmeRow> out;
  std::ifstream in(readme);
  std::string line;
  // | `494_bus.mtx.gz` | HB/494_bus | 494 x 494 | 1666 | `...` | 0 | 11 | 428 | ...
  const std::regex row(R"(^\| `([^`]+)` \| [^|]+ \| (\d+) x (\d+) \| (\d+) \| [^|]+ \| )"
                       R"((\d+) \| (\d+) \| (\d+) \|)");
  std::smatch m;
  while (std::getline(in, line))
    if (std::regex_search(line, m, row))
      out[m[1]] = ReadmeRow{std::stol(m[2]), std::stol(m[3]), std::stol(m[4]),
                            std::stol(m[5]), std::stol(m[6]), std::stol(m[7])};
  return out;
}

TEST(Cli, InfoOnEverySharedMatrixMatchesReadme) {
  SKIP_WITHOUT_SHARED_MATRICES();
  const auto readme = read_readme(shared_matrices() / "README.md");
  int files = 0;
  for (const auto& entry : fs::directory_iterator(shared_matrices())) {
    const std::string name = entry.path().filename().string();
    if (!name.ends_with(".mtx.gz")) continue;
    ++files;
    const RunResult r = run_apiary({"info", entry.path().string(), "--json"});
    ASSERT_EQ(r.exit_code, 0) << name << ": " << r.err;
    const nlohmann::json j = parse_json(r);
    const auto it = readme.find(name);
    if (it == readme.end()) continue;  // a file the README does not describe yet
    const ReadmeRow& want = it->second;
    EXPECT_EQ(j["rows"], want.rows) << name;
    EXPECT_EQ(j["cols"], want.cols) << name;
    EXPECT_EQ(j["nnz"], want.nnz) << name;
    EXPECT_EQ(j["missing_diagonals"], want.missing_diagonals) << name;
    EXPECT_EQ(j["tril_levels"], want.tril_levels) << name;
    EXPECT_EQ(j["bandwidth"], want.bandwidth) << name;
  }
  if (files == 0) GTEST_SKIP() << "no .mtx.gz files in " << shared_matrices().string();
}

// Independent of the README parser: values copied from the README by hand.
TEST(Cli, InfoOnKnownSharedMatrices) {
  SKIP_WITHOUT_SHARED_MATRICES();
  struct Known {
    const char* file;
    long rows;
    long nnz;
    long missing_diagonals;
  };
  for (const Known& k : {Known{"494_bus.mtx.gz", 494, 1666, 0},
                         Known{"west0479.mtx.gz", 479, 1910, 471},
                         Known{"cage10.mtx.gz", 11397, 150645, 0}}) {
    const fs::path path = shared_matrices() / k.file;
    if (!fs::exists(path)) {
      ADD_FAILURE() << path.string() << " is missing from the shared folder";
      continue;
    }
    const RunResult r = run_apiary({"info", path.string(), "--json"});
    ASSERT_EQ(r.exit_code, 0) << k.file << ": " << r.err;
    const nlohmann::json j = parse_json(r);
    EXPECT_EQ(j["source"], "file") << k.file;
    EXPECT_EQ(j["rows"], k.rows) << k.file;
    EXPECT_EQ(j["nnz"], k.nnz) << k.file;
    EXPECT_EQ(j["missing_diagonals"], k.missing_diagonals) << k.file;
    EXPECT_TRUE(j["read_mb_per_s"].is_number()) << k.file;
  }
}

}  // namespace
