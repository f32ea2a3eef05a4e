// The generic test program: an execution tree of task types described by a JSON file
// (config.hpp), expanded on the host (expand.hpp) and run on the device either with
// phases (one phase per tree depth) or with individual dependencies (a child waits for
// its own parents). See docs/generic.md.
//
//   auto tree = apiary::generic::expand(apiary::generic::load_generic_config("four_types.json"));
//   auto run = apiary::generic::run_generic(tree, GenericMode::dependencies, Scheduler::megakernel, {});
//   if (auto problem = apiary::generic::verify(tree, run); !problem.empty()) ...
//
// This header needs no CUDA compiler.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/run_options.hpp"
#include "runtime/scheduler.hpp"
#include "runtime/stats.hpp"
#include "runtime/trace.hpp"
#include "tasks/generic/config.hpp"
#include "tasks/generic/expand.hpp"


namespace apiary::generic {

// Phases mode precompiles one phase per depth 0 .. kMaxPhases - 1; deeper trees need
// dependencies mode.
inline constexpr int kMaxPhases = 8;

enum class GenericMode { phases, dependencies };

std::string_view to_string(GenericMode mode);
std::optional<GenericMode> parse_generic_mode(std::string_view text);

struct GenericRun {
  GenericMode mode = GenericMode::phases;
  RunStats stats;
  // Per instance. Tickets come from one device counter, starting at 1 (0: never taken):
  // the start ticket when the task begins, the end ticket after all its threads finished
  // its work and before it creates or releases any child.
  std::vector<std::uint64_t> start_ticket;
  std::vector<std::uint64_t> end_ticket;
  std::vector<std::uint32_t> executions;  // how often each instance ran
  // Filled when RunOptions::trace is set; names index TraceRecord::queue. Write them
  // with apiary::write_chrome_trace(path, run.trace, run.queue_names, scheduler name).
  std::vector<TraceRecord> trace;
  std::vector<std::string> queue_names;
};

// Runs every instance of the tree once. Queue capacities, waiting storage and trace
// capacity are sized from the tree (the corresponding RunOptions fields are ignored);
// the others (trace on/off, watchdog, blocks_per_sm) are used as given. Throws
// std::invalid_argument when phases mode cannot hold the tree's depth, and the
// runtime's errors (RunError and derived) when a run fails.
GenericRun run_generic(const ExecutionTree& tree, GenericMode mode, Scheduler scheduler, const RunOptions& options);

// The plain-CUDA baseline: the same tree as one CUDA graph, a kernel node per instance
// (one block of the type's worker size doing the same work and taking the same
// tickets) with an edge from each parent. Built and instantiated once by the
// constructor (build_milliseconds(): host time for both, and the upload); each replay()
// resets the tickets, runs the graph once, times it with CUDA events
// (stats.milliseconds; stats.launches: kernel nodes) and returns the tickets for
// verify(). The tree must outlive the graph. Throws CudaError.
class GenericGraph {
 public:
  explicit GenericGraph(const ExecutionTree& tree);
  GenericGraph(const GenericGraph&) = delete;
  GenericGraph& operator=(const GenericGraph&) = delete;
  ~GenericGraph();
  GenericRun replay();
  double build_milliseconds() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Empty when every instance ran exactly once and started after all its parents ended
// (end_ticket[parent] < start_ticket[child]); otherwise the first violation, in words.
std::string verify(const ExecutionTree& tree, const GenericRun& run);

}  // namespace apiary::generic
