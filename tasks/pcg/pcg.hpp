// PCG on the GPU. One loop (pcg_reference.hpp gives its exact form) for every
// formulation; only the preconditioner apply z = M^-1 r differs:
//
//   ic0           IC(0): forward solve with L, backward with L^T, both with the
//                 triangular-solve module (tasks/sptrsv, the variant chosen by `trsv`;
//                 analysis once, in the constructor)
//   cusparse-ic0  the same L with cusparseSpSV for L and for an explicit L^T (the
//                 cuSPARSE baseline: the whole solver is then cuSPARSE + cuBLAS)
//   jacobi        z_i = r_i / a_ii
//   cg            z = r (no preconditioner)
//
// The rest is the same for all: q = A p with cusparseSpMV (CSR_ALG1, deterministic),
// dots, norms and axpys with cuBLAS in host pointer mode (three host reads per
// iteration: p.q, ||r||, r.z, the last for the stopping test), p = z + beta p with a
// small kernel. The factor L comes from the caller (ic0_reference, on the host).
//
//   PcgSolver s(a, Method::ic0, &l, {.trsv = sptrsv::Variant::tassl_deps});
//   PcgResult r = s.solve(b, {.tolerance = 1e-8});
//
// This header needs no CUDA compiler.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <span>
#include <string_view>

#include "runtime/scheduler.hpp"
#include "sparse/formats.hpp"
#include "tasks/pcg/pcg_reference.hpp"
#include "tasks/sptrsv/solver.hpp"

namespace apiary::pcg {

enum class Method { ic0, cusparse_ic0, jacobi, cg };
inline constexpr std::array<Method, 4> kMethods{Method::ic0, Method::cusparse_ic0, Method::jacobi, Method::cg};

std::string_view to_string(Method m);  // "ic0", "cusparse-ic0", "jacobi", "cg"
std::optional<Method> parse_method(std::string_view s);
constexpr bool uses_factor(Method m) { return m == Method::ic0 || m == Method::cusparse_ic0; }
// The host reference with the same preconditioner.
HostPreconditioner host_preconditioner(Method m);

struct DeviceOptions {
  sptrsv::Variant trsv = sptrsv::Variant::tassl_deps;  // for Method::ic0
  Scheduler scheduler = Scheduler::megakernel;          // for the trsv variants on the runtime
};

class PcgSolver {
 public:
  // a: square SPD (n > 0); factor: its IC(0) L (lower, diagonal last in each row) for
  // ic0 and cusparse-ic0, ignored otherwise. Uploads, builds the preconditioner (for
  // ic0 the triangular-solve analysis of L and L^T on the host) and the cuSPARSE/cuBLAS
  // objects. Throws std::invalid_argument for bad input, positive_diagonal's error for
  // jacobi, CudaError/CusparseError/std::runtime_error for device failures. Needs a GPU.
  PcgSolver(const sparse::Csr<double>& a, Method m, const sparse::Csr<double>* factor, const DeviceOptions& o = {});
  ~PcgSolver();
  PcgSolver(const PcgSolver&) = delete;
  PcgSolver& operator=(const PcgSolver&) = delete;

  // One solve from x = 0; any number of times. Non-convergence and breakdown are
  // reported in the result (stop, reason), not thrown.
  PcgResult solve(std::span<const double> b, const PcgOptions& o);

  Method method() const;
  double setup_ms() const;     // constructor wall time (uploads, analyses, library set-up)
  double analysis_ms() const;  // ic0: host triangular-solve analysis of L and L^T (part of setup_ms)

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace apiary::pcg
