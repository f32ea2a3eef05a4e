// The `apiary` executable: subcommands registered by the apps/cmd_*.cpp files.
//
// Error policy (docs/cli.md): command-line mistakes are reported by CLI11 as usual;
// everything a command throws becomes one line "apiary: error: <what>" on stderr and
// exit code 1, never a trace or a dump, because users feed these tools their own files.
#include <cstdio>
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "apps/commands.hpp"

#ifndef APIARY_VERSION
#define APIARY_VERSION "unknown"
#endif

namespace {

int report_error(std::string_view what) {
  // Library messages may span lines (e.g. a list of accepted forms); keep the first.
  const std::string_view first = what.substr(0, what.find('\n'));
  std::cout.flush();
  fmt::print(stderr, "apiary: error: {}\n", first.empty() ? "unknown error" : first);
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Apiary: GPU task scheduling with device-side dependencies, and sparse "
               "linear algebra applications built on it"};
  app.name("apiary");
  app.set_version_flag("--version", "apiary " APIARY_VERSION);
  app.require_subcommand(1);
  app.footer(
      "MATRIX is a Matrix Market file (.mtx or .mtx.gz) or a generated matrix such as "
      "poisson2d:1000;\n'apiary info --help' lists the generator forms. Exit codes: 0 success, "
      "1 error in the input or the run,\nother non-zero values for command-line mistakes. "
      "Documentation: docs/cli.md");

  apiary::cli::add_info_command(app);
  apiary::cli::add_demo_command(app);
  apiary::cli::add_generic_command(app);
  apiary::cli::add_sptrsv_command(app);
  apiary::cli::add_jacobi_command(app);
  apiary::cli::add_rcm_command(app);
  apiary::cli::add_pcg_command(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::bad_alloc&) {
    return report_error("not enough memory for this matrix (std::bad_alloc)");
  } catch (const std::exception& e) {
    return report_error(e.what());
  } catch (...) {
    return report_error("unknown error");
  }
  return 0;
}
