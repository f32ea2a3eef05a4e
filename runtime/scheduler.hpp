// The execution models a program can run under; a run-time choice.
#pragma once

#include <optional>
#include <string>
#include <string_view>

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

inline std::optional<Scheduler> parse_scheduler(std::string_view s) {
  if (s == "megakernel") return Scheduler::megakernel;
  if (s == "timesliced") return Scheduler::timesliced;
  if (s == "controller") return Scheduler::controller;
  return std::nullopt;
}

}  // namespace apiary
