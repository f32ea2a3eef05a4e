// The TASSL variants in float, tasks of 512 threads (tassl.cuh).
#include "tasks/sptrsv/tassl.cuh"

namespace apiary::sptrsv {
template std::unique_ptr<TriangularSolver<float>> make_tassl_solver_of_width<float, kWideTasslThreads>(Variant, const DevicePlan&,
                                                                                         const SolverOptions&);
}  // namespace apiary::sptrsv
