#include "runtime/stats.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace apiary {

std::uint64_t RunStats::total_tasks() const {
  std::uint64_t n = 0;
  for (const auto& t : types) n += t.executed;
  return n;
}

std::string format_stats(const RunStats& s) {
  std::string out = fmt::format("scheduler {}: {:.3f} ms, {} tasks, {} phase switches, {} blocks x {} threads\n",
                                to_string(s.scheduler), s.milliseconds, s.total_tasks(), s.phase_switches,
                                s.blocks, s.threads_per_block);
  out += fmt::format("  {:<24} {:>6} {:>8} {:>12} {:>12} {:>12}\n", "task type", "phase", "threads", "executed",
                     "peak fill", "capacity");
  for (const auto& t : s.types)
    out += fmt::format("  {:<24} {:>6} {:>8} {:>12} {:>12} {:>12}\n", t.name,
                       t.phase < 0 ? std::string("-") : std::to_string(t.phase), t.threads, t.executed, t.peak_fill,
                       t.capacity);
  out += fmt::format("  waiting storage: peak {} of {} tasks\n", s.peak_waiting, s.waiting_capacity);
  return out;
}

nlohmann::json to_json(const RunStats& s) {
  nlohmann::json types = nlohmann::json::array();
  for (const auto& t : s.types)
    types.push_back({{"name", t.name},
                     {"phase", t.phase},
                     {"threads", t.threads},
                     {"executed", t.executed},
                     {"peak_fill", t.peak_fill},
                     {"capacity", t.capacity}});
  return {{"scheduler", std::string(to_string(s.scheduler))},
          {"milliseconds", s.milliseconds},
          {"tasks", s.total_tasks()},
          {"tasks_per_phase", s.tasks_per_phase},
          {"phase_switches", s.phase_switches},
          {"peak_waiting", s.peak_waiting},
          {"waiting_capacity", s.waiting_capacity},
          {"blocks", s.blocks},
          {"threads_per_block", s.threads_per_block},
          {"rounds", s.rounds},
          {"launches", s.launches},
          {"types", types}};
}

}  // namespace apiary
