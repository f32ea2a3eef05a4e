// Factory of the levelset solver; used by make_solver.
#pragma once

#include <memory>

#include "tasks/sptrsv/solver.hpp"

namespace apiary::sptrsv {

template <class Real>
std::unique_ptr<TriangularSolver<Real>> make_levelset_solver(const LowerSystem& s, const SolverOptions& o);

}  // namespace apiary::sptrsv
