// The preconditioned conjugate gradient iteration, as every formulation in this folder
// runs it (host reference here, GPU in pcg.hpp), so that their iteration counts line up:
//
//   x = 0, r = b, z = M^-1 r, p = z, rz = r.z
//   for k = 1, 2, ...:
//     q = A p;  pq = p.q                       (pq <= 0: breakdown)
//     alpha = rz / pq;  x += alpha p;  r -= alpha q
//     stop when ||r|| / ||b|| < tol (converged) or k = max_iterations
//     z = M^-1 r;  rz' = r.z                   (rz' <= 0: breakdown)
//     p = z + (rz' / rz) p;  rz = rz'
//
// ||r|| is the recursively updated residual; callers report the true residual
// ||b - A x|| / ||b|| beside it. b = 0 gives x = 0 after 0 iterations.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sparse/formats.hpp"

namespace apiary::pcg {

using sparse::Csr;
using sparse::index_t;

struct PcgOptions {
  double tolerance = 1e-8;  // on ||r|| / ||b||, > 0
  int max_iterations = 0;   // 0: n
};

enum class Stop { converged, max_iterations, breakdown };
std::string_view to_string(Stop s);  // "converged", "max-iterations", "breakdown"

struct PcgResult {
  std::vector<double> x;
  int iterations = 0;
  double residual = 0;         // ||r|| / ||b|| of the recursive residual at the stop
  Stop stop = Stop::max_iterations;
  std::string reason;          // one line: why it stopped (for breakdown and max-iterations)
  std::vector<double> history; // ||r|| / ||b|| after each iteration
  double milliseconds = 0;     // the iteration loop (GPU formulations: wall time incl. host reads)
  // The task loop only: where an iteration's time goes, per kind of stage ("forward",
  // "spmv", ...; stage_plan.hpp), microseconds per iteration, the mean over the first
  // iterations (task_loop.hpp); empty otherwise.
  std::vector<std::pair<std::string, double>> stage_us;
  bool converged() const { return stop == Stop::converged; }
};

enum class HostPreconditioner { none, jacobi, ic0 };

// Host PCG (the oracle of the GPU tests). For ic0, `factor` is L from ic0_reference and
// M^-1 r = L^-T L^-1 r; for jacobi z_i = r_i / a_ii. Throws std::invalid_argument for a
// non-square a, a b of the wrong length, bad options, a missing factor, or (jacobi) a
// diagonal that is not positive.
PcgResult pcg_reference(const Csr<double>& a, std::span<const double> b, HostPreconditioner m,
                        const Csr<double>* factor, const PcgOptions& o);

// The diagonal of a, checked positive (std::invalid_argument naming the row otherwise):
// what the Jacobi preconditioner divides by.
std::vector<double> positive_diagonal(const Csr<double>& a);

// Checks shared by the formulations: tolerance > 0, max_iterations >= 0. Returns the
// iteration limit to use (n for 0).
int checked_iteration_limit(const PcgOptions& o, index_t n);

// The one-line reasons every formulation reports.
std::string max_iterations_reason(int iterations, double residual, double tolerance);
std::string breakdown_reason(std::string_view what, int iteration, double value);

// The stopping tests every formulation makes, in its order. breaks_down: `value` (p.Ap
// or r.z) must be positive and finite; otherwise res becomes a breakdown and it returns
// true. stops_after: records iteration k with relative residual `residual`; true when
// the loop ends here (a non-finite residual: breakdown; below the tolerance: converged;
// k == limit).
bool breaks_down(PcgResult& res, std::string_view what, int k, double value);
bool stops_after(PcgResult& res, int k, double residual, double tolerance, int limit);

}  // namespace apiary::pcg
