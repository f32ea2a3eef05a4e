// Internal to tasks/pcg: the whole PCG iteration as one task program (pcg_tasks.cu),
// the `tasks` loop of PcgSolver. The cycle of stages is stage_plan.hpp's; every stage
// is a set of chunk tasks of one task type, the last task of a stage (an arrival
// counter finds it) sums the stage's partials in a fixed order, makes the stopping
// and breakdown decisions of pcg_reference.hpp and enqueues the next stage. The host
// launches once per solve and reads the outcome afterwards.
//
// Stage profile: the last task of each stage records the global timer at the stage's
// end during the first kProfiledPasses passes of the cycle; solve() turns the gaps into
// PcgResult::stage_us (the mean over passes 1 to kProfiledPasses - 1; pass 0 follows
// the priming update and computes p0). One timer read and one store per stage.
//
// This header needs no CUDA compiler.
#pragma once

#include <memory>
#include <span>

#include "runtime/scheduler.hpp"
#include "sparse/formats.hpp"
#include "tasks/pcg/pcg_reference.hpp"
#include "tasks/pcg/stage_plan.hpp"

namespace apiary::pcg {

inline constexpr int kProfiledPasses = 32;

struct TaskLoopInfo {
  int stages = 0;             // per iteration
  int tasks = 0;              // per iteration
  StageBudgets budgets;       // as planned (tasks: the automatic budgets' target)
  index_t forward_levels = 0;  // ic0
  index_t backward_levels = 0;
  double analysis_ms = 0;     // host: level sets of L and L^T, the plan
  int blocks = 0;             // of the last run (RunStats::blocks)
  int threads_per_block = 0;
};

class TaskLoop {
 public:
  // a: square, n > 0; factor: L for ic0 (lower, diagonal stored). Uploads and builds
  // the plan (host); budgets.tasks = 0 takes the megakernel's resident blocks. Throws
  // std::invalid_argument for bad input, CudaError for device failures.
  TaskLoop(const Csr<double>& a, HostPreconditioner m, const Csr<double>* factor, Scheduler scheduler,
           const StageBudgets& budgets = {}, int blocks_per_sm = 0);
  ~TaskLoop();
  TaskLoop(const TaskLoop&) = delete;
  TaskLoop& operator=(const TaskLoop&) = delete;

  // One solve from x = 0, like PcgSolver::solve. Runtime failures (watchdog, queue
  // overflow) throw.
  PcgResult solve(std::span<const double> b, const PcgOptions& o);
  TaskLoopInfo info() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace apiary::pcg
