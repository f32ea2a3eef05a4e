// The TASSL variants in float, tasks of 256 threads (tassl.cuh).
#include "tasks/sptrsv/tassl.cuh"

namespace apiary::sptrsv {
template std::unique_ptr<TriangularSolver<float>> make_tassl_solver_of_width<float, kTasslThreads>(Variant, const DevicePlan&,
                                                                                         const SolverOptions&);
}  // namespace apiary::sptrsv
