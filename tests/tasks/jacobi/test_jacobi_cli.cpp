// `apiary jacobi` as a user runs it: input errors are one line on stderr and exit code 1
// on any machine; on a GPU the report, the agreement of all variants, the JSON form, and
// non-convergence as an error after the report; without one, one line saying so.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
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

void expect_one_error_line(const RunResult& r, const std::string& needle) {
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.rfind("apiary: error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << "expected '" << needle << "' in: " << r.err;
}

fs::path write_matrix(const std::string& name, const std::string& text) {
  const fs::path path = fs::path(testing::TempDir()) / name;
  std::ofstream(path) << text;
  return path;
}

TEST(JacobiCli, BadOptionsAreOneLineErrors) {
  expect_one_error_line(run_apiary({"jacobi", "poisson2d:10", "--variant", "magic"}), "unknown variant 'magic'");
  expect_one_error_line(run_apiary({"jacobi", "poisson2d:10", "--variant", "kernels,nope"}), "unknown variant 'nope'");
  expect_one_error_line(run_apiary({"jacobi", "poisson2d:10", "--scheduler", "fastest"}), "unknown scheduler");
  expect_one_error_line(run_apiary({"jacobi", "poisson2d:10", "--rhs", "zeros"}), "unknown right-hand side");
  expect_one_error_line(run_apiary({"jacobi", "nosuch.mtx"}), "nosuch.mtx");
  // Out-of-range numbers are command-line mistakes (CLI11's exit codes, not 0 or 1).
  const RunResult budget = run_apiary({"jacobi", "poisson2d:10", "--nnz-budget", "1"});
  EXPECT_NE(budget.exit_code, 0);
  EXPECT_NE(budget.exit_code, 1);
  const RunResult word = run_apiary({"jacobi", "poisson2d:10", "--nnz-budget", "most"});
  EXPECT_NE(word.exit_code, 0);
  EXPECT_NE(word.exit_code, 1);
}

// `auto` is accepted (and, with a GPU, named in the report with the budget it chose).
TEST(JacobiCli, AutoBudgetsAreChosenAndReported) {
  const RunResult r = run_apiary({"jacobi", "dd:3000:5:15", "--nnz-budget", "auto", "--variant", "autonomous",
                                  "--reps", "1", "--tol", "1e-8"});
  if (const auto reason = apiary::no_device_reason()) {
    expect_one_error_line(r, "no GPU available");  // parsed, then refused for want of a GPU
    return;
  }
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("(nnz budget 512 (auto), row budget 512)"), std::string::npos) << r.out;
  // An explicit row budget is kept, and JSON names what was chosen.
  const RunResult j = run_apiary({"jacobi", "dd:3000:5:15", "--nnz-budget", "auto", "--row-budget", "7", "--variant",
                                  "autonomous", "--reps", "1", "--tol", "1e-8", "--json"});
  ASSERT_EQ(j.exit_code, 0) << j.err;
  const nlohmann::json out = nlohmann::json::parse(j.out);
  EXPECT_EQ(out.at("nnz_budget"), 512);
  EXPECT_EQ(out.at("row_budget"), 7);
  EXPECT_TRUE(out.at("auto_budget").get<bool>());
}

TEST(JacobiCli, ZeroAndMissingDiagonalsNameTheRow) {
  const fs::path zero =
      write_matrix("jacobi_zero_diag.mtx",
                   "%%MatrixMarket matrix coordinate real general\n3 3 5\n1 1 2\n2 1 1\n2 2 0\n3 2 1\n3 3 2\n");
  expect_one_error_line(run_apiary({"jacobi", zero.string()}), "zero diagonal at row 1 (0-based)");
  const fs::path missing = write_matrix("jacobi_missing_diag.mtx",
                                        "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 2\n2 2 1\n3 1 1\n");
  expect_one_error_line(run_apiary({"jacobi", missing.string()}), "missing diagonal at row 2 (0-based)");
}

TEST(JacobiCli, WithoutAGpuOneLineSaysSo) {
  if (!apiary::no_device_reason()) GTEST_SKIP() << "a GPU is present";
  expect_one_error_line(run_apiary({"jacobi", "poisson2d:10"}), "no GPU available");
}

TEST(JacobiCli, ReportsEveryVariantAndTheirAgreement) {
  if (const auto reason = apiary::no_device_reason()) GTEST_SKIP() << "GPU test skipped: " << *reason;
  const RunResult r = run_apiary({"jacobi", "dd:3000:5:15", "--reps", "1", "--tol", "1e-8", "--check"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  for (const char* v : {"kernels", "graph", "stages-phases", "stages-deps", "autonomous", "checkpoints"})
    EXPECT_NE(r.out.find(v), std::string::npos) << v;
  EXPECT_NE(r.out.find("agree bit for bit"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("host reference"), std::string::npos) << r.out;
}

TEST(JacobiCli, JsonHasOneEntryPerRun) {
  if (const auto reason = apiary::no_device_reason()) GTEST_SKIP() << "GPU test skipped: " << *reason;
  const RunResult r = run_apiary({"jacobi", "poisson2d:20", "--reps", "1", "--tol", "1e-2", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("runs").size(), 6u);
  EXPECT_TRUE(j.at("converged").get<bool>());
  EXPECT_TRUE(j.contains("warning"));  // Poisson is only weakly diagonally dominant
  for (const auto& run : j.at("runs")) EXPECT_EQ(run.at("iterations"), j.at("iterations"));
  EXPECT_EQ(j.at("nnz_budget"), 512);  // the defaults, given as such
  EXPECT_EQ(j.at("row_budget"), 256);
  EXPECT_FALSE(j.at("auto_budget").get<bool>());
}

TEST(JacobiCli, NonConvergenceIsAnErrorAfterTheReport) {
  if (const auto reason = apiary::no_device_reason()) GTEST_SKIP() << "GPU test skipped: " << *reason;
  const RunResult r =
      run_apiary({"jacobi", "poisson2d:30", "--max-iter", "5", "--reps", "1", "--variant", "kernels,autonomous"});
  expect_one_error_line(r, "did not converge within 5 iterations");
  EXPECT_NE(r.out.find("autonomous"), std::string::npos) << "the report comes first";
}

}  // namespace
