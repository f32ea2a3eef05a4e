// Runtime::run: the scheduler is a run-time choice; every program runs unchanged
// under each. Include this header (it includes the runtime) in the .cu file that runs
// a program.
#pragma once

#include <stdexcept>
#include <string>

#include "runtime/runtime.cuh"
#include "schedulers/controller.cuh"
#include "schedulers/megakernel.cuh"
#include "schedulers/timesliced.cuh"

namespace apiary {

template <class P, class Env>
RunStats Runtime<P, Env>::run(Scheduler scheduler, cudaStream_t stream) {
  switch (scheduler) {
    case Scheduler::megakernel: return megakernel::run(*this, stream);
    case Scheduler::timesliced: return timesliced::run(*this, stream);
    case Scheduler::controller: return controller::run(*this, stream);  // throws when not built
  }
  throw std::invalid_argument("unknown scheduler " + std::to_string(static_cast<int>(scheduler)));
}

}  // namespace apiary
