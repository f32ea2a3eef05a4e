// The execution models a program can run under; a run-time choice.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace apiary {

enum class Scheduler { megakernel, timesliced, controller };

inline std::string_view to_string(Scheduler s) {
  switch (s) {
    case Scheduler::megakernel: return "megakernel";
    case Scheduler::timesliced: return "timesliced";
    case Scheduler::controller: return "controller";
  }
  return "unknown";
}

// The schedulers this build can run. The controller needs dynamic parallelism, hence
// relocatable device code for every program: it is built with the CMake option
// APIARY_CONTROLLER (off by default; the `controller` preset), which defines
// APIARY_WITH_CONTROLLER.
inline std::vector<Scheduler> available_schedulers() {
#if defined(APIARY_WITH_CONTROLLER) && APIARY_WITH_CONTROLLER
  return {Scheduler::megakernel, Scheduler::timesliced, Scheduler::controller};
#else
  return {Scheduler::megakernel, Scheduler::timesliced};
#endif
}

inline std::optional<Scheduler> parse_scheduler(std::string_view s) {
  if (s == "megakernel") return Scheduler::megakernel;
  if (s == "timesliced") return Scheduler::timesliced;
  if (s == "controller") return Scheduler::controller;
  return std::nullopt;
}

}  // namespace apiary
