// Runs the built `apiary` binary (APIARY_EXE, a compile definition of the test) as a user
// would: stdout through a pipe, stderr into a file, so tests can check each and the exit
// code. Shared by the CLI tests of every command.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace apiary::testing {

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline RunResult run_apiary(const std::vector<std::string>& args) {
  static std::atomic<int> counter{0};
  const std::filesystem::path err_path =
      std::filesystem::path(::testing::TempDir()) /
      ("apiary_stderr_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + ".txt");
  std::string cmd = shell_quote(APIARY_EXE);
  for (const auto& a : args) {
    cmd += ' ';
    cmd += shell_quote(a);
  }
  cmd += " 2>";
  cmd += shell_quote(err_path.string());
  RunResult r;
  FILE* pipe = ::popen(cmd.c_str(), "r");
  if (pipe == nullptr) {
    ADD_FAILURE() << "popen failed for: " << cmd;
    return r;
  }
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) r.out.append(buf, n);
  const int status = ::pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.err = read_file(err_path);
  std::filesystem::remove(err_path);
  return r;
}

}  // namespace apiary::testing
