// Runtime::run: the scheduler is a run-time choice; every program runs unchanged
// under each. Include this header (it includes the runtime) in the .cu file that runs
// a program.
#pragma once

#include <stdexcept>
#include <string>

#include <nvtx3/nvToolsExt.h>

#include "runtime/runtime.cuh"
#include "schedulers/controller.cuh"
#include "schedulers/megakernel.cuh"
#include "schedulers/timesliced.cuh"

namespace apiary {

namespace detail {
// An NVTX range around a run ("apiary run: megakernel"), so that a run shows up by name
// in Nsight Systems. Costs nothing measurable when no tool is attached.
struct RunRange {
  explicit RunRange(Scheduler s) {
    const std::string name = "apiary run: " + std::string(to_string(s));
    nvtxRangePushA(name.c_str());
  }
  ~RunRange() { nvtxRangePop(); }
  RunRange(const RunRange&) = delete;
  RunRange& operator=(const RunRange&) = delete;
};
}  // namespace detail

template <class P, class Env>
RunStats Runtime<P, Env>::run(Scheduler scheduler, cudaStream_t stream) {
  const detail::RunRange range(scheduler);
  if (scheduler != Scheduler::megakernel && !experimental_schedulers_enabled())
    throw std::invalid_argument("scheduler '" + std::string(to_string(scheduler)) +
                                "' is not available yet: its first GPU test failed (no worker ran; see "
                                "docs/schedulers.md). Set APIARY_EXPERIMENTAL_SCHEDULERS=1 to run it anyway");
  switch (scheduler) {
    case Scheduler::megakernel: return megakernel::run(*this, stream);
    case Scheduler::timesliced: return timesliced::run(*this, stream);
    case Scheduler::controller: return controller::run(*this, stream);  // throws when not built
  }
  throw std::invalid_argument("unknown scheduler " + std::to_string(static_cast<int>(scheduler)));
}

}  // namespace apiary
