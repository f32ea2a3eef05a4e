// Option parsing shared by the subcommands.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/scheduler.hpp"

namespace apiary::cli {

// `--scheduler`: one name, or `all` for every scheduler this build can run
// (available_schedulers(): the controller only in a build with APIARY_CONTROLLER).
inline std::vector<Scheduler> schedulers_of(const std::string& s) {
  if (s == "all") return available_schedulers();
  if (auto one = parse_scheduler(s)) return {*one};
  throw std::invalid_argument("unknown scheduler '" + s + "' (megakernel, timesliced, controller or all)");
}

}  // namespace apiary::cli
