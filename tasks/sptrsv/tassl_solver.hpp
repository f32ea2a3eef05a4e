// Factory of the TASSL solvers (tassl-deps, tassl-phases, tassl-kernels); used by
// make_solver, which is what applications call.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

#include "tasks/sptrsv/device_plan.hpp"
#include "tasks/sptrsv/solver.hpp"

namespace apiary::sptrsv {

// One per precision and task width (tassl_{float,double}_{256,512}.cu).
template <class Real, int Threads>
std::unique_ptr<TriangularSolver<Real>> make_tassl_solver_of_width(Variant v, const DevicePlan& plan,
                                                                   const SolverOptions& o);

// The solver for the plan's task width (DevicePlan::threads).
template <class Real>
std::unique_ptr<TriangularSolver<Real>> make_tassl_solver(Variant v, const DevicePlan& plan, const SolverOptions& o) {
  if (plan.threads == kTasslThreads) return make_tassl_solver_of_width<Real, kTasslThreads>(v, plan, o);
  if (plan.threads == kWideTasslThreads) return make_tassl_solver_of_width<Real, kWideTasslThreads>(v, plan, o);
  throw std::invalid_argument("sptrsv: no TASSL solver for tasks of " + std::to_string(plan.threads) + " threads");
}

}  // namespace apiary::sptrsv
