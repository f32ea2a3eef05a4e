// Runtime::run: the scheduler is a run-time choice; every program runs unchanged
// under each. Include this header (it includes the runtime) in the .cu file that runs
// a program.
#pragma once

#include <stdexcept>
#include <string>

#include "runtime/runtime.cuh"
#include "schedulers/megakernel.cuh"

namespace apiary {

template <class P, class Env>
RunStats Runtime<P, Env>::run(Scheduler scheduler, cudaStream_t stream) {
  switch (scheduler) {
    case Scheduler::megakernel: return megakernel::run(*this, stream);
    case Scheduler::timesliced:
    case Scheduler::controller: break;
  }
  throw std::invalid_argument("scheduler '" + std::string(to_string(scheduler)) +
                              "' is not implemented yet (available: megakernel)");
}

}  // namespace apiary
