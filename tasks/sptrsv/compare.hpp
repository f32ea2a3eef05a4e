// Runs several solver variants on one system and measures them the same way: what
// `apiary sptrsv` prints and what bench_sptrsv collects over a matrix set.
//
// Times are host wall-clock around solve() and a stream synchronisation, i.e. what a
// caller waits for, including each variant's per-solve set-up (for the runtime variants:
// resetting counters and seeding the run). The runtime variants also report the kernel
// time alone (RunStats::milliseconds): under the megakernel the device clock from its
// block 0's start to its last block's exit (RunOptions::event_timer is off), under the
// other schedulers CUDA events around their kernels.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "runtime/scheduler.hpp"
#include "runtime/stats.hpp"
#include "tasks/sptrsv/analysis.hpp"
#include "tasks/sptrsv/solver.hpp"

namespace apiary::sptrsv {

enum class Precision { single, double_ };

struct CompareOptions {
  std::vector<Variant> variants{kVariants.begin(), kVariants.end()};
  std::vector<Scheduler> schedulers{Scheduler::megakernel};  // for the runtime variants
  SystemOptions system;
  index_t n_max = 0;  // 0: the model chooses
  int threads = 0;    // TASSL task width (256 or 512); 0: the model chooses
  std::optional<Split> split{};  // how large components are split; unset: the model chooses
  Precision precision = Precision::double_;
  int rhs = 1;
  int reps = 5;    // timed solves per variant (after one warm-up solve)
  // Times the analysis and each variant's set-up is made, the last kept: analysis_ms and
  // setup_ms are their medians. One analysis timed alone swung 5.4-10.9x cuSPARSE's on cs4
  // between passes of the same benchmark on one H200 host (session 45); bench_sptrsv
  // takes 3 of each, for both sides of that ratio.
  int setup_reps = 1;
  bool prune = true;  // AnalysisOptions::prune
};

struct VariantResult {
  Variant variant;
  std::optional<Scheduler> scheduler;  // runtime variants only
  double setup_ms = 0;                 // solver construction (uploads, library analysis); median of setup_reps
  double solve_ms = 0;                 // median over the repetitions, all rhs
  double min_ms = 0, max_ms = 0;
  std::optional<double> kernel_ms;     // runtime variants: the scheduler's kernel alone (median)
  double residual = 0;                 // max over columns of ||T x - b|| / ||b||
  std::optional<RunStats> stats;       // last run
  std::string error;                   // non-empty when the variant failed
};

struct Comparison {
  index_t n = 0;
  std::int64_t nnz = 0;  // of the triangle solved with (diagonal included)
  sparse::Triangle triangle = sparse::Triangle::lower;
  bool unit_diagonal = false;
  Precision precision = Precision::double_;
  int rhs = 1;
  double analysis_ms = 0;  // host TASSL analysis (partition, schedule, layout; n_max choice); median of setup_reps
  Analysis analysis;       // plan arrays dropped: statistics only
  std::vector<VariantResult> results;

  const VariantResult* find(Variant v) const;  // first successful result of v
  double gflops(const VariantResult& r) const { return 2.0 * nnz * rhs / (r.solve_ms * 1e6); }
  // Solves after which this variant's analysis + set-up + solves cost less than
  // cuSPARSE's; nullopt when it never does (or no cuSPARSE result).
  std::optional<long long> break_even(const VariantResult& r) const;
};

// Throws for bad input (see make_lower_system, analyze) or no GPU; a variant that fails
// while solving is recorded in its result's `error` and the others still run.
Comparison compare(const sparse::Csr<double>& a, const CompareOptions& o);

// The system and its TASSL analysis alone, timed as compare() times it (analysis_ms of
// o.setup_reps analyses, analysis; no results; o.variants and o.schedulers are not used,
// o.rhs and o.reps only checked): host only, no GPU needed (`apiary sptrsv
// --analysis-only`, `bench_sptrsv --analysis-only`). Throws for bad input as compare() does.
Comparison analysis_only(const sparse::Csr<double>& a, const CompareOptions& o);

std::string format_comparison(const Comparison& c);  // the table `apiary sptrsv` prints
// The one line `apiary sptrsv` stops with: the first variant that failed, or the first
// whose residual is above `limit`; nullopt when every one is within it. When cuSPARSE's
// residual is above the limit as well, the line says so: then the system (its
// conditioning for this right-hand side), not a solver, is the likely cause.
std::optional<std::string> result_error(const Comparison& c, double limit);
// The model's candidates, one line each: n_max, split, sub-graph levels, task width,
// predicted time (pruned: its lower bound), and which one the choice kept, or why it
// passed one over or pruned it.
std::string format_candidates(const Analysis& a);
nlohmann::json to_json(const Comparison& c);
std::string_view to_string(Precision p);

}  // namespace apiary::sptrsv
