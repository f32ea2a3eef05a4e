// `apiary pcg` and bench_pcg: every ordering x solver on one SPD matrix, measured the
// same way, with the cuSPARSE-built PCG of the same ordering as the baseline.
//
// Per ordering: the permutation (host), P A P^T, its IC(0) factor (host, timed), then
// per method and loop (the host loop and the task program; cusparse-ic0 has only the
// host loop) a PcgSolver (set-up timed), one untimed warm-up solve and `reps` timed
// solves (median). The right-hand side is fixed in the user's numbering
// (b_i = sin(0.001 i) + 1.5) and permuted with the matrix; the solution is permuted back
// and the true residual ||b - A x|| / ||b|| computed on the host with the user's A.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "tasks/pcg/ordering.hpp"
#include "tasks/pcg/pcg.hpp"

namespace apiary::pcg {

struct CompareOptions {
  std::vector<Order> orders{kOrders[0], kOrders[1], kOrders[2]};
  std::vector<Method> methods{kMethods.begin(), kMethods.end()};
  // DeviceOptions::loop is ignored; cusparse-ic0 (the baseline) runs in the host loop
  // whatever this says.
  std::vector<Loop> loops{kLoops.begin(), kLoops.end()};
  DeviceOptions device;
  PcgOptions pcg;
  double shift = 0;  // IC(0) of A + shift diag(A)
  int reps = 1;
};

// Comma-separated lists, or "all", as `apiary pcg` and bench_pcg take them:
// orderings (natural, rcm, color), preconditioners (ic0 brings cusparse-ic0 with it,
// jacobi, none) and loops (host, tasks). std::invalid_argument names a bad entry.
std::vector<Order> parse_order_list(const std::string& s);
std::vector<Method> parse_preconditioner_list(const std::string& s);
std::vector<Loop> parse_loop_list(const std::string& s);

struct MethodResult {
  Order order = Order::natural;
  Method method = Method::cg;
  Loop loop = Loop::host;
  double setup_ms = 0;        // PcgSolver construction (uploads, analyses, library set-up)
  double analysis_ms = 0;     // of which host analysis (PcgSolver::analysis_ms)
  double solve_ms = 0;        // median over reps of the iteration loop
  double min_ms = 0, max_ms = 0;  // range over reps
  int iterations = 0;
  Stop stop = Stop::max_iterations;
  std::string reason;
  double residual = 0;        // recursive ||r|| / ||b|| at the stop
  double true_residual = 0;   // ||b - A x|| / ||b|| on the host, user's numbering
  std::vector<std::pair<std::string, double>> stage_us;  // task loop: PcgResult::stage_us
  TaskLoopInfo task_loop;     // task loop: the plan (stages, tasks, budgets) and the run's blocks
  std::string error;          // the solver threw (a device failure): nothing else is valid
  double ms_per_iteration() const { return iterations > 0 ? solve_ms / iterations : 0; }
  bool ok() const { return error.empty() && stop == Stop::converged; }
};

struct OrderInfo {
  Order order = Order::natural;
  double ordering_ms = 0;
  index_t colors = 0;          // color
  index_t bandwidth = 0;       // of P A P^T
  double factor_ms = 0;        // host IC(0); 0 when no method needs it
  std::int64_t factor_nnz = 0;
};

struct Comparison {
  index_t n = 0;
  std::int64_t nnz = 0;
  CompareOptions options;
  std::vector<OrderInfo> orders;
  std::vector<MethodResult> results;
  // The cuSPARSE PCG of the same ordering (host loop), when it ran and converged.
  const MethodResult* baseline(Order o) const;
};

// Input errors throw before anything touches the GPU: a non-square, empty or
// unsymmetric matrix (std::invalid_argument), bad options, an IC(0) breakdown
// (Ic0Breakdown's message, with the row in the input's numbering and the ordering).
// Then "no GPU available (...)" without a device. Per-method device failures are kept in
// the result's `error`; non-convergence is in `stop`/`reason` (the caller decides).
Comparison compare(const Csr<double>& a, const CompareOptions& o);

std::string format_comparison(const Comparison& c);
nlohmann::json to_json(const Comparison& c);

// The right-hand side compare() uses, in the user's numbering.
std::vector<double> default_rhs(index_t n);

}  // namespace apiary::pcg
