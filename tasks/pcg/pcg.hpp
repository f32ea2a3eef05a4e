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
// Two loops drive the iteration (DeviceOptions::loop):
//
//   host   the loop above, kernel by kernel from the host (three host reads per
//          iteration); every method
//   tasks  the whole iteration as one task program on the runtime (task_loop.hpp,
//          stage_plan.hpp): SpMV, reductions, vector updates and the preconditioner as
//          chunk tasks, the tests on the device, one launch per solve. ic0 solves with
//          L and L^T level set by level set; jacobi and cg too. Not cusparse-ic0.
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
#include "tasks/pcg/stage_plan.hpp"
#include "tasks/pcg/task_loop.hpp"
#include "tasks/sptrsv/solver.hpp"

namespace apiary::pcg {

enum class Method { ic0, cusparse_ic0, jacobi, cg };
inline constexpr std::array<Method, 4> kMethods{Method::ic0, Method::cusparse_ic0, Method::jacobi, Method::cg};

std::string_view to_string(Method m);  // "ic0", "cusparse-ic0", "jacobi", "cg"
std::optional<Method> parse_method(std::string_view s);
constexpr bool uses_factor(Method m) { return m == Method::ic0 || m == Method::cusparse_ic0; }
// The host reference with the same preconditioner.
HostPreconditioner host_preconditioner(Method m);

enum class Loop { host, tasks };
inline constexpr std::array<Loop, 2> kLoops{Loop::host, Loop::tasks};
std::string_view to_string(Loop l);  // "host", "tasks"
std::optional<Loop> parse_loop(std::string_view s);
// Whether method m can run in loop l (cusparse-ic0: the host loop only).
constexpr bool runs_in(Method m, Loop l) { return l == Loop::host || m != Method::cusparse_ic0; }

struct DeviceOptions {
  Loop loop = Loop::host;
  sptrsv::Variant trsv = sptrsv::Variant::tassl_deps;  // for Method::ic0 in the host loop
  Scheduler scheduler = Scheduler::megakernel;          // for the task loop and the trsv variants on the runtime
  StageBudgets budgets{};                               // task loop: chunk sizes, 0 automatic (stage_plan.hpp)
  int blocks_per_sm = 0;                                // task loop, megakernel: 0 = as many as fit
};

class PcgSolver {
 public:
  // a: square SPD (n > 0); factor: its IC(0) L (lower, diagonal last in each row) for
  // ic0 and cusparse-ic0, ignored otherwise. Uploads, builds the preconditioner (for
  // ic0 the triangular-solve analysis of L and L^T on the host; in the task loop the
  // stage plan) and the cuSPARSE/cuBLAS objects. Throws std::invalid_argument for bad
  // input (cusparse-ic0 in the task loop too), positive_diagonal's error for jacobi,
  // CudaError/CusparseError/std::runtime_error for device failures. Needs a GPU.
  PcgSolver(const sparse::Csr<double>& a, Method m, const sparse::Csr<double>* factor, const DeviceOptions& o = {});
  ~PcgSolver();
  PcgSolver(const PcgSolver&) = delete;
  PcgSolver& operator=(const PcgSolver&) = delete;

  // One solve from x = 0; any number of times. Non-convergence and breakdown are
  // reported in the result (stop, reason), not thrown.
  PcgResult solve(std::span<const double> b, const PcgOptions& o);

  Method method() const;
  Loop loop() const;
  double setup_ms() const;     // constructor wall time (uploads, analyses, library set-up)
  double analysis_ms() const;  // host analysis (part of setup_ms): ic0's triangular-solve analysis of L and
                               // L^T; in the task loop the stage plan
  TaskLoopInfo task_loop_info() const;  // the task loop's plan and last run; zeros in the host loop

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace apiary::pcg
