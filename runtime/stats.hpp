// What a run reports: time, tasks per type and phase, phase switches, peak fills.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "runtime/scheduler.hpp"

namespace apiary {

struct TypeStats {
  std::string name;
  int phase = -1;  // -1: phaseless
  int threads = 0;
  std::uint64_t executed = 0;
  std::uint64_t peak_fill = 0;
  std::uint32_t capacity = 0;
};

struct RunStats {
  Scheduler scheduler = Scheduler::megakernel;
  double milliseconds = 0;  // CUDA events around the scheduler's work
  std::vector<TypeStats> types;
  std::vector<std::uint64_t> tasks_per_phase;
  std::uint64_t phase_switches = 0;
  std::uint64_t peak_waiting = 0;
  std::uint32_t waiting_capacity = 0;
  int blocks = 0;             // persistent blocks (megakernel) or largest grid launched
  int threads_per_block = 0;  // megakernel: its blocks; timesliced, controller: the largest worker block
  std::uint64_t rounds = 0;    // timesliced: host rounds; controller: controller generations; megakernel: 0
  std::uint64_t launches = 0;  // kernels launched to run tasks (megakernel: 1)
  std::uint64_t trace_records = 0;

  std::uint64_t total_tasks() const;
};

std::string format_stats(const RunStats& s);  // a human-readable table
nlohmann::json to_json(const RunStats& s);

}  // namespace apiary
