// Variant `tasks` of the GPU RCM (rcm_tasks.cu); rcm_gpu() dispatches to it after the
// checks that need no GPU. Internal to tasks/rcm.
#pragma once

#include "runtime/scheduler.hpp"
#include "sparse/formats.hpp"
#include "tasks/rcm/rcm_gpu.hpp"

namespace apiary::rcm::detail {

// Fills r's permutation, statistics and times (not the symmetrization fields). The
// graph's pattern is symmetric; options.task_tile is already checked.
void rcm_tasks(const sparse::Csr<double>& graph, Scheduler scheduler, const RcmGpuOptions& options,
               RcmGpuResult& r);

}  // namespace apiary::rcm::detail
