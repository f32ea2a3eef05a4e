// Factory of the TASSL solvers (tassl-deps, tassl-phases, tassl-kernels); used by
// make_solver, which is what applications call.
#pragma once

#include <memory>

#include "tasks/sptrsv/device_plan.hpp"
#include "tasks/sptrsv/solver.hpp"

namespace apiary::sptrsv {

template <class Real>
std::unique_ptr<TriangularSolver<Real>> make_tassl_solver(Variant v, const DevicePlan& plan, const SolverOptions& o);

}  // namespace apiary::sptrsv
