// The TASSL variants in double (tassl.cuh).
#include "tasks/sptrsv/tassl.cuh"

namespace apiary::sptrsv {
template std::unique_ptr<TriangularSolver<double>> make_tassl_solver<double>(Variant, const DevicePlan&, const SolverOptions&);
}  // namespace apiary::sptrsv
