// Trace output: per task its type, SM, start and end time, as Chrome trace-event JSON
// (opens in Perfetto and chrome://tracing; bench/plot_schedule.py draws it too).
#pragma once

#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "runtime/state.hpp"

namespace apiary {

// One event per task: name = task type, tid = SM, times in microseconds from the
// first task's start.
void write_chrome_trace(const std::filesystem::path& path, std::span<const TraceRecord> records,
                        std::span<const std::string> type_names, const std::string& scheduler);

}  // namespace apiary
