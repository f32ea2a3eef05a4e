// `apiary demo`: what scripts/run.sh runs after building. It must succeed on any
// machine, so without a GPU it says so in one line and shows the host-side part.
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "apps/commands.hpp"
#include "apps/matrix_source.hpp"
#include "runtime/device.hpp"

namespace apiary::cli {

namespace {

constexpr const char* kDefaultDemoMatrix = "poisson2d:1000";

// The GPU part: the generic task program (the sparse applications join here as they
// are written, each with one headline against its baseline).
void run_gpu_demos(const LoadedMatrix& /*m*/) { run_generic_demo(); }

void run_demo(const std::string& spec) {
  // Loaded first so that a bad --matrix fails with its one error line and nothing else.
  const LoadedMatrix m = load_matrix(spec);
  if (const auto reason = no_device_reason()) {
    fmt::print(stderr, "apiary: no GPU available ({}); running the host-side part only\n",
               *reason);
    std::fflush(stderr);
    print_info(m, false, std::cout);
    return;
  }
  fmt::print("device        {}\n", describe(query_device()));
  std::fflush(stdout);
  print_info(m, false, std::cout);
  std::cout.flush();
  run_gpu_demos(m);
}

}  // namespace

void add_demo_command(CLI::App& app) {
  auto matrix = std::make_shared<std::string>(kDefaultDemoMatrix);
  CLI::App* cmd = app.add_subcommand(
      "demo", "Show the device and the structure of a demo matrix, then run the GPU "
              "applications on it (host-side part only when no GPU is present)");
  cmd->add_option("--matrix", *matrix, kMatrixArgumentHelp)->capture_default_str();
  cmd->callback([matrix] { run_demo(*matrix); });
}

}  // namespace apiary::cli
