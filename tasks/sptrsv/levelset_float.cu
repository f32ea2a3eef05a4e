// The levelset variant in float (levelset.cuh).
#include "tasks/sptrsv/levelset.cuh"

namespace apiary::sptrsv {
template std::unique_ptr<TriangularSolver<float>> make_levelset_solver<float>(const LowerSystem&, const SolverOptions&);
}  // namespace apiary::sptrsv
