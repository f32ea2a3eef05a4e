// The levelset variant in double (levelset.cuh).
#include "tasks/sptrsv/levelset.cuh"

namespace apiary::sptrsv {
template std::unique_ptr<TriangularSolver<double>> make_levelset_solver<double>(const LowerSystem&, const SolverOptions&);
}  // namespace apiary::sptrsv
