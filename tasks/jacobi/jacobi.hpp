// Jacobi iteration on the device, as task programs and as plain-CUDA baselines:
//
//   x(k+1)_i = (b_i - sum_{j != i} a_ij x(k)_j) / a_ii   from x(0) = (1, ..., 1),
//
// until ||x(k+1) - x(k)||_1 < tolerance or max_iterations updates, exactly as
// sparse::jacobi does on the host. See docs/jacobi.md.
//
//   apiary::jacobi::JacobiSolver solver(a, b, options);      // host preparation, uploads
//   apiary::jacobi::JacobiRun run = solver.solve(Variant::stages_deps, Scheduler::megakernel);
//   if (!run.converged) ...                                   // not an error here; the CLI reports it
//
// Variants (how iteration k+1 is ordered after iteration k):
//   kernels        one update kernel + one reduction kernel per iteration, the host reads
//                  the change every iteration and decides (the baseline)
//   graph          the same kernels in a CUDA graph, looped on the device by a conditional
//                  WHILE node that the reduction kernel switches off
//   stages_phases  row tasks and a check task in alternating cyclic phases
//   stages_deps    the same order with individual dependencies: the check task waits for
//                  all row tasks of its iteration, each row task of the next iteration
//                  waits for the check task
//   autonomous     row tasks only: the last row task of an iteration to finish decides,
//                  starts the next iteration before it sums the change, and stops the
//                  run through a stop flag
//   checkpoints    each row task waits only for the tasks that produce the x values it
//                  reads (and those that read its own); a checkpoint task every
//                  checkpoint_interval iterations sums the changes and decides
// Every variant runs the same chunks with the same arithmetic, so they all produce the
// same iterates bit for bit, and the same iteration count.
//
// This header needs no CUDA compiler.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/run_options.hpp"
#include "runtime/scheduler.hpp"
#include "runtime/state.hpp"
#include "runtime/stats.hpp"
#include "sparse/formats.hpp"
#include "tasks/jacobi/partition.hpp"
#include "tasks/jacobi/problem.hpp"

namespace apiary::jacobi {

enum class Variant { kernels, graph, stages_phases, stages_deps, autonomous, checkpoints };

inline constexpr std::array<Variant, 6> kAllVariants{Variant::kernels,     Variant::graph,      Variant::stages_phases,
                                                     Variant::stages_deps, Variant::autonomous, Variant::checkpoints};

// "kernels", "graph", "stages-phases", "stages-deps", "autonomous", "checkpoints"
std::string_view to_string(Variant v);
std::optional<Variant> parse_variant(std::string_view text);
// True for the task programs, which run under a scheduler; the baselines ignore it.
bool uses_scheduler(Variant v);

struct JacobiOptions {
  double tolerance = 1e-6;  // on ||x(k+1) - x(k)||_1
  int max_iterations = 1000;
  PartitionOptions partition;
  // checkpoints: iterations between two checks of the change (>= 1). The device keeps
  // max(2, this) versions of x (for every variant of the solver).
  int checkpoint_interval = 4;
  bool keep_history = false;  // copy every iterate back (tests; max_iterations x n doubles on the device)
  // Passed to the task runtime: trace, watchdog_seconds, blocks_per_sm. Queue and waiting
  // capacities are sized from the partition, and `cyclic` from the variant. Unlike the
  // runtime's, blocks_per_sm = 0 (the default) does not mean "as many as fit" but about
  // one megakernel block per row task of an iteration: ceil(chunks / SMs) per SM, at
  // least 1, as many as fit at most. A positive value is a maximum, as in the runtime.
  RunOptions run;
};

struct JacobiRun {
  Variant variant = Variant::kernels;
  Scheduler scheduler = Scheduler::megakernel;  // meaningful when uses_scheduler(variant)
  std::vector<double> x;                        // the last iterate
  int iterations = 0;                           // updates performed
  double last_change = 0;                       // ||x(k+1) - x(k)||_1 of the last update
  bool converged = false;
  std::vector<double> changes;               // the change of every update
  std::vector<std::vector<double>> history;  // x(1), x(2), ... with keep_history
  double milliseconds = 0;                   // GPU time of the iteration (CUDA events), host round trips
                                             // included for `kernels`; not the preparation or uploads
  std::optional<RunStats> stats;             // the runtime's statistics, for task variants
  // Task variants with options.run.trace: one record per task; queue_names index
  // TraceRecord::queue. Write them with apiary::write_chrome_trace (runtime/trace.hpp).
  std::vector<TraceRecord> trace;
  std::vector<std::string> queue_names;
};

class JacobiSolver {
 public:
  // Splits off the diagonal (throws sparse::SingularError for a zero or missing one,
  // std::invalid_argument for a non-square or empty matrix, a b of the wrong length or
  // bad options), partitions the rows and uploads everything. Needs a GPU.
  JacobiSolver(const sparse::Csr<double>& a, std::span<const double> b, const JacobiOptions& options = {});
  ~JacobiSolver();
  JacobiSolver(JacobiSolver&&) noexcept;
  JacobiSolver& operator=(JacobiSolver&&) noexcept;

  // One solve from x(0) = 1. May be called any number of times, with any variant.
  // Throws the runtime's errors (apiary::RunError and derived, std::invalid_argument for
  // a scheduler that is not implemented) and CudaError.
  JacobiRun solve(Variant variant, Scheduler scheduler = Scheduler::megakernel);

  const JacobiProblem& problem() const;
  const Partition& partition() const;
  const JacobiOptions& options() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// One-shot convenience.
JacobiRun jacobi_solve(const sparse::Csr<double>& a, std::span<const double> b, Variant variant,
                       Scheduler scheduler = Scheduler::megakernel, const JacobiOptions& options = {});

}  // namespace apiary::jacobi
