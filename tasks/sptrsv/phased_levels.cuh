// Level-by-level release with two cyclic phases, shared by tassl-phases (work item: a
// sub-graph) and levelset (work item: a chunk of rows):
//   Phase<Work>           the work items of level k;
//   Phase<AdvanceLevel>   one task that enqueues the work items of level k + 1.
// The first work item of level k enqueues AdvanceLevel(k + 1); it waits in its phase
// until every item of level k is done, which is what orders the levels.
#pragma once

#include "runtime/context.cuh"
#include "tasks/sptrsv/device_plan.hpp"

namespace apiary::sptrsv {

struct LevelView {
  const index_t* level = nullptr;      // level of each work unit (sub-graph or row)
  const index_t* level_ptr = nullptr;  // levels + 1 offsets into order
  const index_t* order = nullptr;      // units grouped by level
  index_t levels = 0;
};

// Work must provide `template <class Ctx> static __device__ void enqueue_level(Ctx&, index_t k)`.
template <class Work>
struct AdvanceLevel {
  using Item = index_t;  // the level to release
  static constexpr int threads = 256;
  static constexpr int shared_bytes = 0;
  static constexpr const char* name = "AdvanceLevel";

  template <class Ctx>
  __device__ static void execute(const Item& k, Ctx& ctx) {
    Work::enqueue_level(ctx, k);
  }
};

// Called by one thread of the first work item of `level`.
template <class Advance, class Ctx>
__device__ void release_next_level(Ctx& ctx, const LevelView& lv, index_t level) {
  if (level + 1 < lv.levels) ctx.template enqueue<Advance>(level + 1);
}

}  // namespace apiary::sptrsv
