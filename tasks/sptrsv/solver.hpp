// The GPU triangular solvers behind one interface: every variant of `apiary sptrsv`
// solves the same LowerSystem, so benchmarks and tests treat them alike.
//
//   auto sys = sptrsv::make_lower_system(a, {});
//   auto an = sptrsv::analyze(sys, sptrsv::limits_of<double>());
//   auto solver = sptrsv::make_solver<double>(sptrsv::Variant::tassl_deps, sys, &an, {});
//   solver->solve(d_b, d_x, 1, stream);
//
// A matrix of the same pattern needs no new analysis: sptrsv::refresh_values(an, sys2),
// then a solver made of `an` solves sys2 (analysis.hpp).
#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <memory>
#include <optional>
#include <string_view>

#include "runtime/scheduler.hpp"
#include "runtime/stats.hpp"
#include "tasks/sptrsv/analysis.hpp"

namespace apiary::sptrsv {

enum class Variant { tassl_deps, tassl_phases, tassl_kernels, levelset, syncfree, cusparse };

inline constexpr std::array<Variant, 6> kVariants{Variant::tassl_deps, Variant::tassl_phases, Variant::tassl_kernels,
                                                  Variant::levelset,   Variant::syncfree,     Variant::cusparse};

std::string_view to_string(Variant v);
std::optional<Variant> parse_variant(std::string_view s);

// True for the variants that run through the runtime (and so take a scheduler).
constexpr bool uses_runtime(Variant v) {
  return v == Variant::tassl_deps || v == Variant::tassl_phases || v == Variant::levelset;
}
// True for the variants that need the TASSL analysis.
constexpr bool uses_tassl(Variant v) {
  return v == Variant::tassl_deps || v == Variant::tassl_phases || v == Variant::tassl_kernels;
}

struct SolverOptions {
  Scheduler scheduler = Scheduler::megakernel;
};

template <class Real>
class TriangularSolver {
 public:
  virtual ~TriangularSolver() = default;
  // X with L X = B for `rhs` columns stored one after the other (n values each), in
  // device memory, in the user's numbering. Synchronises `stream` when it returns for
  // the variants that run through the runtime; the others are asynchronous.
  virtual void solve(const Real* d_b, Real* d_x, int rhs, cudaStream_t stream) = 0;
  // Device-side set-up in milliseconds: uploads, and for cuSPARSE its analysis.
  virtual double setup_ms() const = 0;
  // Statistics of the last solve, for variants that run through the runtime.
  virtual std::optional<RunStats> last_run() const { return std::nullopt; }
};

// `analysis` is needed by the TASSL variants (and ignored by the others).
template <class Real>
std::unique_ptr<TriangularSolver<Real>> make_solver(Variant v, const LowerSystem& system, const Analysis* analysis,
                                                    const SolverOptions& o);

}  // namespace apiary::sptrsv
