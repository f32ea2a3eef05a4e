// The TASSL sub-graph solve as task programs:
//  * tassl-deps: one SolveSubgraph task per sub-graph behind a Dependency counting its
//    predecessor sub-graphs; a finishing task resolves its successors, so a sub-graph
//    starts the moment its inputs are final (no level barrier). CreateWaiting tasks put
//    the tasks with predecessors into waiting storage at the start of the run; a resolve
//    that comes first is counted (the n+1 protocol), so the two may race freely.
//  * tassl-phases: the same solve released level by level with two cyclic phases,
//    SolveLevel (the sub-graphs of one level) and AdvanceLevel (releases the next level).
#pragma once

#include "schedulers/run.cuh"
#include "tasks/sptrsv/phased_levels.cuh"
#include "tasks/sptrsv/tassl_device.cuh"

namespace apiary::sptrsv {

template <class Real>
struct TasslEnv {
  PlanView<Real> plan;
  const Real* b = nullptr;
  Real* x = nullptr;
  int rhs = 1;
  Dependency* deps = nullptr;         // per sub-graph
  const index_t* succ = nullptr;      // successors, from SubgraphTask::first_succ on
  const index_t* pred_count = nullptr;
  const index_t* waiting = nullptr;   // sub-graphs with predecessors
  LevelView levels;                   // sub-graph levels (tassl-phases)
};

template <int Threads, class Real>
__device__ void solve_subgraph_task(const SubgraphTask& t, const TasslEnv<Real>& env, int rank, unsigned char* shared,
                                    const auto& ctx) {
  solve_subgraph<Threads>(env.plan, t, env.b, env.x, env.rhs, rank, shared, [&] { ctx.sync(); });
}

// Threads: the plan's task width (DevicePlan::threads).
template <class Real, int Threads>
struct SolveSubgraph {
  using Item = SubgraphTask;  // the header, so the solve starts without loading it
  static constexpr int threads = Threads;
  static constexpr int shared_bytes = static_cast<int>(subgraph_shared_bytes<Real>(max_subgraph<Real>(Threads)));
  static constexpr const char* name = "SolveSubgraph";

  template <class Ctx>
  __device__ static void execute(const Item& t, Ctx& ctx) {
    const TasslEnv<Real>& env = ctx.env();
    const int rank = ctx.rank();
    // This thread's first successor, loaded now and used after the solve: no load stands
    // between the solve and the release.
    const index_t mine = t.first_succ + rank;
    index_t successor = 0;
    if (mine < t.end_succ) successor = env.succ[mine];
    solve_subgraph_task<Threads>(t, env, rank, ctx.template shared_as<unsigned char>(), ctx);
    // Every thread's x writes are before the barrier inside solve_subgraph; the fence
    // makes them visible device-wide before the successor can be released.
    for (index_t k = mine; k < t.end_succ; k += threads) {
      __threadfence();
      ctx.resolve(env.deps[k == mine ? successor : env.succ[k]]);
    }
  }
};

// Item: a range of env.waiting.
struct WaitingRange {
  index_t begin;
  index_t end;
};

template <class Real, int Threads>
struct CreateWaiting {
  using Item = WaitingRange;
  static constexpr int threads = 256;
  static constexpr int shared_bytes = 0;
  static constexpr const char* name = "CreateWaiting";

  template <class Ctx>
  __device__ static void execute(const Item& r, Ctx& ctx) {
    const TasslEnv<Real>& env = ctx.env();
    for (index_t i = r.begin + ctx.rank(); i < r.end; i += threads) {
      const index_t g = env.waiting[i];
      ctx.template enqueue_after<SolveSubgraph<Real, Threads>>(env.deps[g], env.pred_count[g], env.plan.tasks[g]);
    }
  }
};

template <class Real, int Threads>
using TasslDepsProgram = Program<Phaseless<CreateWaiting<Real, Threads>, SolveSubgraph<Real, Threads>>>;

template <class Real, int Threads>
struct SolveLevel {
  using Item = index_t;  // the sub-graph
  static constexpr int threads = Threads;
  static constexpr int shared_bytes = static_cast<int>(subgraph_shared_bytes<Real>(max_subgraph<Real>(Threads)));
  static constexpr const char* name = "SolveLevel";

  template <class Ctx>
  __device__ static void execute(const Item& g, Ctx& ctx) {
    const TasslEnv<Real>& env = ctx.env();
    solve_subgraph_task<Threads>(env.plan.tasks[g], env, ctx.rank(), ctx.template shared_as<unsigned char>(), ctx);
    const LevelView& lv = env.levels;
    if (ctx.rank() == 0 && g == lv.order[lv.level_ptr[lv.level[g]]])
      release_next_level<AdvanceLevel<SolveLevel>>(ctx, lv, lv.level[g]);
  }

  // AdvanceLevel's part: the work items of level k are its sub-graphs.
  template <class Ctx>
  __device__ static void enqueue_level(Ctx& ctx, index_t k) {
    const LevelView& lv = ctx.env().levels;
    for (index_t pos = lv.level_ptr[k] + ctx.rank(); pos < lv.level_ptr[k + 1]; pos += Ctx::threads)
      ctx.template enqueue<SolveLevel>(lv.order[pos]);
  }
};

template <class Real, int Threads>
using TasslPhasesProgram = Program<Phase<SolveLevel<Real, Threads>>, Phase<AdvanceLevel<SolveLevel<Real, Threads>>>>;

}  // namespace apiary::sptrsv
