// The subcommands of the `apiary` executable. Each command lives in its own file
// (cmd_<name>.cpp, or .cu when it needs device code) and registers itself on the
// top-level app with a callback; main.cpp only calls the add_* functions below.
//
// A new command: declare add_<name>_command here, define it in apps/cmd_<name>.{cpp,cu},
// list the file in apps/CMakeLists.txt and call it from main.cpp. Report user errors by
// throwing (any std::exception): main prints what() as one line and exits with 1.
#pragma once

#include <iosfwd>

// Forward declaration so that .cu command files need not pull CLI11 through nvcc
// unless they register options themselves.
namespace CLI {
class App;
}

namespace apiary::cli {

void add_info_command(CLI::App& app);
void add_demo_command(CLI::App& app);
void add_generic_command(CLI::App& app);
void add_sptrsv_command(CLI::App& app);
void add_jacobi_command(CLI::App& app);
void add_rcm_command(CLI::App& app);
void add_pcg_command(CLI::App& app);

// The GPU part of `apiary demo`: the generic program in both modes.
void run_generic_demo();

struct LoadedMatrix;

// The report of `apiary info`, reused by `apiary demo`. Everything is computed before
// anything is printed, so a failure leaves no partial report.
void print_info(const LoadedMatrix& m, bool json, std::ostream& out);

// One-line description of the MATRIX argument, for option help texts.
inline constexpr const char* kMatrixArgumentHelp =
    "Matrix Market file (.mtx, .mtx.gz) or generated matrix such as poisson2d:1000";

}  // namespace apiary::cli
