// The TASSL variants in double, tasks of 512 threads (tassl.cuh).
#include "tasks/sptrsv/tassl.cuh"

namespace apiary::sptrsv {
template std::unique_ptr<TriangularSolver<double>> make_tassl_solver_of_width<double, kWideTasslThreads>(Variant, const DevicePlan&,
                                                                                         const SolverOptions&);
}  // namespace apiary::sptrsv
