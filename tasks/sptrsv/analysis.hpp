// From a user's matrix to what the device solvers need: the triangle to solve, turned
// into a lower-triangular system with every diagonal stored and non-zero, and the TASSL
// analysis of it (partition, schedule, sub-graph DAG, device layout) with the choice of
// n_max. Host C++; reusable across right-hand sides and solves.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "sparse/analysis.hpp"
#include "sparse/formats.hpp"
#include "tasks/sptrsv/device_plan.hpp"
#include "tasks/sptrsv/partition.hpp"
#include "tasks/sptrsv/schedule.hpp"

namespace apiary::sptrsv {

struct SystemOptions {
  // Which triangle of the matrix to solve with. Unset: the matrix must be triangular
  // already (a diagonal matrix counts as lower); otherwise the other triangle is ignored.
  std::optional<sparse::Triangle> take;
  bool unit_diagonal = false;  // the diagonal is 1 whatever is stored
};

// The system in lower-triangular form. An upper-triangular U is solved as the lower
// L(i, j) = U(n-1-i, n-1-j) with b and x read backwards (`reversed`).
struct LowerSystem {
  Csr<double> lower;
  sparse::Triangle triangle = sparse::Triangle::lower;  // what the user's matrix was
  bool reversed = false;
};

// Throws std::invalid_argument for a non-square or non-triangular matrix (naming a row
// with entries on both sides and suggesting --lower / --upper), and
// sparse::SingularError for a missing or zero diagonal (without unit_diagonal).
LowerSystem make_lower_system(const Csr<double>& a, const SystemOptions& o);

// Fitted to tassl-deps kernel times on an NVIDIA H200 (session 41: bench_sptrsv --sweep
// over the quick set at n_max 32..24576 and both task widths, bench/fit_sptrsv_model.py;
// docs/sptrsv.md, "Choosing n_max and the task width"): a solve starts and ends the
// megakernel's blocks, a sub-graph level costs a task start behind a dependency, an
// external slot of the schedule (an external row on the device) a share of a batch of
// loads, an internal slot round a task-wide barrier and the dependent shared-memory
// updates before it. One set of constants per task width: the wider task takes a large
// slot in fewer rounds, but each round costs it more (a barrier of 16 warps).
inline constexpr ModelConstants kDefaultModel{4.396e-6, 0.2041e-6, 0.2477e-6, kTasslThreads, 9.68e-6};
inline constexpr ModelConstants kWideModel{4.449e-6, 0.2046e-6, 0.3188e-6, kWideTasslThreads, 9.42e-6};

struct AnalysisOptions {
  index_t n_max = 0;          // 0: choose with the model among the candidates
  index_t n_max_limit = 0;    // largest sub-graph a 256-thread task holds (shared memory); > 0
  index_t wide_n_max_limit = 0;  // the same for a 512-thread task; 0: n_max_limit
  int threads = 0;            // task width (kTasslThreads or kWideTasslThreads); 0: the model chooses
  // How components larger than n_max are split; unset: the model compares the splits.
  std::optional<Split> split{};
  // The models the choice compares, one per task width (ModelConstants::threads).
  std::vector<ModelConstants> models{kDefaultModel, kWideModel};
  // Stop analysing a candidate once the model's time for its sub-graph levels alone is
  // more than what another candidate needs to be chosen (it cannot be chosen then, nor
  // change the choice); false: every candidate in full (the same choice, more time).
  bool prune = true;
};

struct Analysis {
  DevicePlan plan;
  PartitionStats partition;
  index_t row_levels = 0;          // level sets of the rows (for reports)
  std::int64_t internal_edges = 0;
  std::int64_t external_edges = 0;
  index_t total_slots = 0;
  double predicted_seconds = 0;    // the model's estimate for the chosen n_max and width
  // Its terms: predicted = start + alpha * levels + tau_external * path_external_slots +
  // tau_internal * path_internal_slots (slot rounds, see ModelConstants::threads),
  // summed over the slowest sub-graph of each level
  // (what a fit of the constants to measured times needs).
  std::int64_t path_external_slots = 0;
  std::int64_t path_internal_slots = 0;
  Split split = Split::heuristic;  // how the chosen partition split large components
  std::vector<index_t> candidates;  // n_max values the model compared,
  std::vector<Split> candidate_splits;    // each with this split,
  std::vector<double> candidate_seconds;  // at its fastest task width (pruned: its lower bound),
  std::vector<int> candidate_threads;     // this one;
  std::vector<bool> candidate_pruned;     // pruned (AnalysisOptions::prune): its lower bound,
                                          // the model's time for its levels alone, was above
  double pruned_above = 0;                // this (0 without pruning);
  std::vector<index_t> candidate_levels;  // its sub-graph levels;
  // whether the choice took it into account (when the model chooses the split, a bands or
  // tiles candidate is passed over unless it halves the heuristic's sub-graph levels at
  // its n_max, and a tiles candidate also unless it is predicted at least a quarter below
  // every other candidate that counts).
  std::vector<bool> candidate_chosen_from;
  std::vector<bool> candidate_halves_levels;  // whether its levels pass the first of those rules,
  double tiles_below = 0;  // and the time the second compares with (the best other; 0: none)
  std::size_t chosen = 0;  // the candidate kept (an index into the candidate arrays)
};

// "heuristic", "bands" or "tiles" (reports, --split), and back; nullopt for another name.
const char* split_name(Split s);
std::optional<Split> parse_split(std::string_view name);

// The limits of both task widths in one precision (max_subgraph).
template <class Real>
AnalysisOptions limits_of(AnalysisOptions o = {}) {
  o.n_max_limit = max_subgraph<Real>(kTasslThreads);
  o.wide_n_max_limit = max_subgraph<Real>(kWideTasslThreads);
  return o;
}

// Partition, schedule and layout of `s.lower`; with o.n_max = 0 every candidate (powers
// of two from 32 up to the 256-thread limit, that limit and the 512-thread limit; none
// past the first that holds all rows, whose partition a larger one would repeat; each
// with every split, bands and tiles at a few sizes, unless o.split names one) is analysed in parallel, each under the
// model of every task width that holds it (o.threads = 0) or of the given width, and the
// n_max, split and width the model predicts fastest kept (plan.n_max, split,
// plan.threads), among the candidates candidate_chosen_from marks; with o.prune a
// candidate that cannot be chosen stops before its slots are all counted.
Analysis analyze(const LowerSystem& s, const AnalysisOptions& o);

// Reuses an analysis for another matrix of the same pattern: `s` (from make_lower_system
// with the same triangle options as the analysed system) must have its pattern, only its
// values may differ. The plan takes s's values (refresh_values, device_plan.hpp); a
// solver made of the analysis afterwards solves `s`, a solver made before keeps the old
// values. std::invalid_argument where the patterns differ; `a` is then unchanged.
void refresh_values(Analysis& a, const LowerSystem& s);

}  // namespace apiary::sptrsv
