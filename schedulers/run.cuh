// Runtime::run: the scheduler is a run-time choice; every program runs unchanged
// under each. Include this header (it includes the runtime) in the .cu file that runs
// a program.
#pragma once

#include <stdexcept>
#include <string>

#include "runtime/nvtx.hpp"
#include "runtime/runtime.cuh"
#include "schedulers/controller.cuh"
#include "schedulers/megakernel.cuh"
#include "schedulers/timesliced.cuh"

namespace apiary {

template <class P, class Env>
RunStats Runtime<P, Env>::run(Scheduler scheduler, cudaStream_t stream) {
  // The whole run as Nsight Systems shows it; the megakernel's and the controller's
  // phases change on the device, where NVTX cannot mark them (use RunOptions::trace).
  const std::string name = "apiary run: " + std::string(to_string(scheduler));
  const NvtxRange range{name};
  switch (scheduler) {
    case Scheduler::megakernel: return megakernel::run(*this, stream);
    case Scheduler::timesliced: return timesliced::run(*this, stream);
    case Scheduler::controller: return controller::run(*this, stream);  // throws when not built
  }
  throw std::invalid_argument("unknown scheduler " + std::to_string(static_cast<int>(scheduler)));
}

}  // namespace apiary
