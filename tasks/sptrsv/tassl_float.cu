// The TASSL variants in float (tassl.cuh).
#include "tasks/sptrsv/tassl.cuh"

namespace apiary::sptrsv {
template std::unique_ptr<TriangularSolver<float>> make_tassl_solver<float>(Variant, const DevicePlan&, const SolverOptions&);
}  // namespace apiary::sptrsv
