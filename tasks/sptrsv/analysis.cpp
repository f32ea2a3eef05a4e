#include "tasks/sptrsv/analysis.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <functional>
#include <mutex>
#include <numeric>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "sparse/reference.hpp"
#include "sparse/transform.hpp"
#include "tasks/sptrsv/ranges.hpp"

namespace apiary::sptrsv {

namespace {

// First row with entries on both sides of the diagonal, or -1.
index_t first_two_sided_row(const Csr<double>& a, bool* any_below, bool* any_above) {
  *any_below = *any_above = false;
  index_t first_below = -1, first_above = -1;
  for (index_t i = 0; i < a.rows; ++i)
    for (index_t k = a.row_begin(i); k < a.row_end(i); ++k) {
      if (a.col[k] < i && first_below < 0) first_below = i;
      if (a.col[k] > i && first_above < 0) first_above = i;
    }
  *any_below = first_below >= 0;
  *any_above = first_above >= 0;
  return std::max(first_below, first_above);
}

// Diagonal checks of a lower-triangular matrix with sorted rows: the diagonal is the
// last entry of a row when it is stored.
void require_nonzero_diagonal(const Csr<double>& lower, bool reversed) {
  const index_t n = lower.rows;
  for (index_t i = 0; i < n; ++i) {
    const index_t e = lower.row_end(i);
    const index_t user_row = reversed ? n - 1 - i : i;
    if (e == lower.row_begin(i) || lower.col[e - 1] != i) throw sparse::SingularError(user_row, true);
    if (lower.val[e - 1] == 0.0) throw sparse::SingularError(user_row, false);
  }
}

struct Candidate {
  Partition p;
  PartitionStats stats;
  Schedule s;
  SubgraphDag dag;
  double seconds = 0;
  int threads = 0;  // the task width whose model gave `seconds`
  std::int64_t path_external = 0, path_internal = 0;
  double lower_bound = 0;       // the model's time for its sub-graph levels alone
  int lower_bound_threads = 0;  // the width whose model gave it
  bool stopped = false;         // pruned while its slots were counted: s is incomplete
};

// The n_max candidates tried with Split::bands when the split is the model's choice. Bands
// pay where the heuristic chains sub-graphs over few row levels (nh2010, cs4,
// commanche_dual); on the quick set the best bands were at 128-4096 (session 42), and
// each candidate costs analysis time.
constexpr std::array<index_t, 3> kBandSizes{128, 512, 2048};

// The n_max candidates tried with Split::tiles when the split is the model's choice, on
// matrices with 2 or 3 strides (PartitionInput::stride_dims): boxes of 10^3 and 16^3, or
// squares of 32^2 and 64^2. By the model, poisson3d:100's best tiles were 10^3 (528 us,
// against 565 for 8^3 and 547 for 16^3; session 43, host).
constexpr std::array<index_t, 2> kTileSizes{1024, 4096};

// The smallest range of a parallel pass, in vertices or edges: the candidates' slots (on
// their share of the threads) and the passes after the choice (on all). With the pool's
// threads started once, a range this small still pays: 2^16 for the candidates left
// nh2010's slots on one thread each (its analyze 10.8-11.7 -> 10.2-10.4 ms, blocks8x6000@1%
// 34-36 -> 27-29 ms; H200 host, session 30).
constexpr std::size_t kMinRange = std::size_t{1} << 13;

// A lower bound above `bound` rules a candidate out. The margin keeps the rounding of
// 4/3 * seconds (the tiles' rule, below) from ruling out one that the exact rule keeps.
bool beaten(double lower_bound, double bound) { return lower_bound > bound * (1 + 1e-9); }

// The rules by which analyze chooses among its candidates, and what the candidates tell
// each other while they run so that one the rules have ruled out stops early
// (AnalysisOptions::prune). Where the model chooses the split:
// - bands and tiles are taken only where they at least halve the sub-graph levels of the
//   heuristic at the same n_max: fewer levels is what they buy, and a smaller gain is
//   within the model's error where levels hold many sub-graphs (poisson3d:100: bands at
//   512 predicted 9% faster than the heuristic at 256, measured 8% slower; session 42);
// - tiles, further, only where the model puts them at least a quarter below every other
//   candidate so taken: on poisson3d:40 tiles of 16^3 were predicted 2% faster than the
//   heuristic's 3 sub-graphs, within the model's error, on poisson3d:100 65% (session 43).
// A candidate's lower bound is the model's time for its levels alone (start + alpha *
// levels, the least over the widths' models): its slots only add to it. The bound is the
// least, over the candidates analysed in full whose levels make them eligible, of a
// heuristic or bands candidate's time and 4/3 of a tiles candidate's. A candidate whose
// lower bound is above it can neither be chosen nor change the choice (docs/sptrsv.md,
// "Pruning candidates"). Thread-safe.
class Rules {
 public:
  Rules(const std::vector<index_t>& n_max, const std::vector<Split>& splits, bool split_given)
      : splits_(splits), split_given_(split_given), heuristic_at_(n_max.size(), -1), levels_(n_max.size(), -1),
        lower_bound_(n_max.size()), seconds_(n_max.size(), -1) {
    for (std::size_t k = 0; k < n_max.size(); ++k)
      for (std::size_t h = 0; h < n_max.size(); ++h)
        if (splits[h] == Split::heuristic && n_max[h] == n_max[k] && heuristic_at_[k] < 0)
          heuristic_at_[k] = static_cast<std::ptrdiff_t>(h);
    for (auto& b : lower_bound_) b.store(-1, std::memory_order_relaxed);
  }

  // The candidate's DAG levels and lower bound are known.
  void levels_known(std::size_t k, index_t levels, double lower_bound) {
    std::lock_guard lock(mutex_);
    levels_[k] = levels;
    lower_bound_[k].store(lower_bound, std::memory_order_relaxed);
    update();
  }
  // The candidate is analysed in full: the model's time for it.
  void seconds_known(std::size_t k, double seconds) {
    std::lock_guard lock(mutex_);
    seconds_[k] = seconds;
    update();
  }
  // Whether the candidate is out already (its lower bound known and beaten).
  bool ruled_out(std::size_t k) const {
    const double b = lower_bound_[k].load(std::memory_order_relaxed);
    return b >= 0 && beaten(b, bound_.load(std::memory_order_relaxed));
  }
  double bound() const { return bound_.load(std::memory_order_relaxed); }

  // Whether the levels allow the candidate (its own and the heuristic's at its n_max; once
  // all are known).
  bool halves_levels(std::size_t k) const {
    if (split_given_ || splits_[k] == Split::heuristic || heuristic_at_[k] < 0) return true;
    const index_t heuristic = levels_[static_cast<std::size_t>(heuristic_at_[k])];
    return levels_[k] >= 0 && heuristic >= 0 && 2 * levels_[k] <= heuristic;
  }
  // Whether the tiles' rule applies to it.
  bool tiles_rule(std::size_t k) const { return !split_given_ && splits_[k] == Split::tiles; }

 private:
  void update() {  // under mutex_
    double bound = INFINITY;
    for (std::size_t k = 0; k < splits_.size(); ++k)
      if (seconds_[k] >= 0 && halves_levels(k))
        bound = std::min(bound, tiles_rule(k) ? seconds_[k] * 4 / 3 : seconds_[k]);
    bound_.store(bound, std::memory_order_relaxed);
  }

  std::vector<Split> splits_;
  bool split_given_;
  std::vector<std::ptrdiff_t> heuristic_at_;  // per candidate: the heuristic candidate at its n_max, -1: none
  std::mutex mutex_;
  std::vector<index_t> levels_;                // -1: not known yet
  std::vector<std::atomic<double>> lower_bound_;  // -1: not known yet
  std::vector<double> seconds_;                // -1: not analysed in full (yet)
  std::atomic<double> bound_{INFINITY};
};

// The partition is feasible by construction (tests check partition() on its own), so
// the schedule and the DAG skip their checks of it. The model needs only the schedule's
// slots and the DAG's levels: edges are placed and predecessors listed for the chosen
// candidate only, in analyze. The DAG needs only the partition: it is built beside the
// slots (with nine candidates on a 16-core host, a candidate's time is the analysis's
// critical path), and once its levels are known the slots stop if the rules rule the
// candidate out (with `prune`). Levels gathered by the slots pass itself saved CPU time
// and made the analysis 10-15% slower there (blocks16x16000@0.1%, nh2010; H200 host,
// session 29).
Candidate analyse_one(const PartitionInput& in, std::size_t k, index_t n_max, Split split,
                      std::span<const ModelConstants> models, unsigned threads, Rules& rules, bool prune) {
  Candidate c;
  c.p = partition(in, n_max, &c.stats, split);
  const std::function<bool()> stop = [&] { return rules.ruled_out(k); };
  detail::side_by_side(
      [&] {
        c.dag = detail::subgraph_dag_of_feasible(in.lower, c.p, detail::DagContent::levels);
        for (const ModelConstants& model : models) {
          const double bound = model_seconds(c.dag.levels, {}, model);
          if (c.lower_bound_threads == 0 || bound < c.lower_bound) {
            c.lower_bound = bound;
            c.lower_bound_threads = model.threads;
          }
        }
        rules.levels_known(k, c.dag.levels, c.lower_bound);
      },
      [&] {
        c.s = detail::schedule_of_feasible(in.lower, c.p, threads, kMinRange, detail::ScheduleContent::slots,
                                           prune ? stop : std::function<bool()>{});
      });
  if (prune && rules.ruled_out(k)) {
    c.stopped = true;
    return c;
  }
  // Each task width's model on the same partition and slots (the width changes only how
  // many rounds a slot takes); the fastest is the candidate's.
  bool have = false;
  for (const ModelConstants& model : models) {
    const PathTerms path = path_terms(c.dag, c.s, model);
    const double seconds = model_seconds(c.dag.levels, path, model);
    if (!have || seconds < c.seconds) {
      have = true;
      c.seconds = seconds;
      c.threads = model.threads;
      c.path_external = path.external;
      c.path_internal = path.internal;
    }
  }
  rules.seconds_known(k, c.seconds);
  return c;
}

}  // namespace

const char* split_name(Split s) {
  switch (s) {
    case Split::heuristic: return "heuristic";
    case Split::bands: return "bands";
    case Split::tiles: return "tiles";
  }
  return "?";
}

std::optional<Split> parse_split(std::string_view name) {
  for (Split s : {Split::heuristic, Split::bands, Split::tiles})
    if (name == split_name(s)) return s;
  return std::nullopt;
}

LowerSystem make_lower_system(const Csr<double>& a, const SystemOptions& o) {
  sparse::require_square(a, "sptrsv");
  sparse::Triangle t;
  if (o.take) {
    t = *o.take;
  } else {
    bool below = false, above = false;
    const index_t row = first_two_sided_row(a, &below, &above);
    if (below && above)
      throw std::invalid_argument("sptrsv: the matrix is not triangular (row " + std::to_string(row) +
                                  " has entries on both sides of the diagonal): pass --lower or --upper to "
                                  "solve with that triangle");
    t = above ? sparse::Triangle::upper : sparse::Triangle::lower;
  }
  const auto diag = o.unit_diagonal ? sparse::Diagonal::unit : sparse::Diagonal::keep;
  LowerSystem s;
  s.triangle = t;
  if (t == sparse::Triangle::lower) {
    s.lower = sparse::lower_triangle(a, diag);
  } else {
    std::vector<index_t> backwards(static_cast<std::size_t>(a.rows));
    std::iota(backwards.rbegin(), backwards.rend(), index_t{0});
    s.lower = sparse::permute_symmetric(sparse::upper_triangle(a, diag), backwards);
    s.reversed = true;
  }
  require_nonzero_diagonal(s.lower, s.reversed);
  return s;
}

Analysis analyze(const LowerSystem& s, const AnalysisOptions& o) {
  if (o.n_max_limit < 1) throw std::invalid_argument("sptrsv::analyze: n_max_limit must be positive");
  if (o.threads != 0 && !is_task_width(o.threads))
    throw std::invalid_argument("sptrsv: --threads takes " + std::to_string(kTasslThreads) + ", " +
                                std::to_string(kWideTasslThreads) + " or auto, got " + std::to_string(o.threads));
  // What a task of each width holds, and the widths the choice may take.
  auto limit_of = [&](int threads) {
    return threads == kWideTasslThreads && o.wide_n_max_limit > 0 ? o.wide_n_max_limit : o.n_max_limit;
  };
  std::vector<ModelConstants> models;
  index_t limit = 0;
  for (const ModelConstants& m : o.models)
    if (is_task_width(m.threads) && (o.threads == 0 || m.threads == o.threads)) {
      models.push_back(m);
      limit = std::max(limit, limit_of(m.threads));
    }
  if (models.empty())
    throw std::invalid_argument("sptrsv::analyze: no model for a task width of " +
                                (o.threads == 0 ? std::string("256 or 512") : std::to_string(o.threads)) + " threads");
  if (o.n_max > limit)
    throw std::invalid_argument("sptrsv: --nmax " + std::to_string(o.n_max) + " exceeds what one task holds in "
                                "shared memory (" + std::to_string(limit) + ")");
  const PartitionInput input(s.lower);
  Analysis a;
  if (o.n_max > 0) {
    a.candidates = {o.n_max};
  } else {
    const index_t narrow = std::min(o.n_max_limit, limit);
    for (index_t m = 32; m < narrow; m *= 2) a.candidates.push_back(m);
    a.candidates.push_back(narrow);
    // The wide task's limit, but not the sizes between: on the quick set none was
    // faster than both its neighbours (session 41), and each candidate costs analysis time.
    if (limit > narrow) a.candidates.push_back(limit);
    // Once a candidate holds every row, a larger one gives the same partition.
    const auto whole =
        std::find_if(a.candidates.begin(), a.candidates.end(), [&](index_t m) { return m >= s.lower.rows; });
    if (whole != a.candidates.end()) a.candidates.erase(whole + 1, a.candidates.end());
  }
  // Each n_max with each split asked for. When the model chooses the split, bands and
  // tiles are tried at a few sizes only (kBandSizes, kTileSizes; any size with a given
  // n_max), tiles only where L has 2 or 3 strides, and both only where a component is
  // larger than n_max: below that every split is the same.
  index_t largest = 0;
  for (index_t c = 0; c < input.components; ++c) largest = std::max(largest, input.comp_ptr[c + 1] - input.comp_ptr[c]);
  const std::vector<index_t> sizes = std::move(a.candidates);
  a.candidates.clear();
  auto try_split = [&](Split split, index_t m) {
    if (o.split) return *o.split == split;
    auto among = [&](const auto& list) { return o.n_max > 0 || std::find(list.begin(), list.end(), m) != list.end(); };
    switch (split) {
      case Split::heuristic: return true;
      case Split::bands: return m < largest && among(kBandSizes);
      case Split::tiles: return m < largest && input.stride_dims >= 2 && among(kTileSizes);
    }
    return false;
  };
  for (Split split : {Split::heuristic, Split::bands, Split::tiles})
    for (index_t m : sizes)
      if (try_split(split, m)) {
        a.candidates.push_back(m);
        a.candidate_splits.push_back(split);
      }
  // Each candidate under the models of the widths that hold it (every candidate is at
  // most `limit`, so at least one does).
  auto models_for = [&](index_t n_max) {
    std::vector<ModelConstants> fit;
    for (const ModelConstants& m : models)
      if (n_max <= limit_of(m.threads)) fit.push_back(m);
    return fit;
  };
  // Candidates are independent: analyse them concurrently, keep the best. They start in
  // reverse order, the largest first: the largest n_max and the bands and tiles take the
  // longest (their slots on few sub-graphs, the tiles' coordinates), and they are the
  // ones most often predicted fastest, which rules the others out soonest.
  input.prepare_orders(*std::min_element(a.candidates.begin(), a.candidates.end()));
  // The hardware threads shared out between the candidates' schedules (the largest step
  // of a candidate): 2 each for nine candidates on 16 threads, all for a given n_max.
  const auto cores = std::max(1u, std::thread::hardware_concurrency());
  const auto schedule_threads = static_cast<unsigned>((cores + a.candidates.size() - 1) / a.candidates.size());
  std::vector<Candidate> tried(a.candidates.size());
  Rules rules(a.candidates, a.candidate_splits, o.split.has_value());
  detail::run_each(a.candidates.size(), [&](std::size_t i) {
    const std::size_t k = a.candidates.size() - 1 - i;
    tried[k] = analyse_one(input, k, a.candidates[k], a.candidate_splits[k], models_for(a.candidates[k]),
                           schedule_threads, rules, o.prune);
  });
  // Every candidate's levels are known now, and the bound is final: the least over all
  // candidates (the one that gives it is never ruled out), so which candidates are pruned
  // does not depend on the order they finished in; one that finished before it was ruled
  // out counts as pruned too.
  auto pruned = [&](std::size_t k) {
    return o.prune && (tried[k].stopped || beaten(tried[k].lower_bound, rules.bound()));
  };
  double best_other = -1;
  for (std::size_t k = 0; k < tried.size(); ++k)
    if (!pruned(k) && !rules.tiles_rule(k) && rules.halves_levels(k) &&
        (best_other < 0 || tried[k].seconds < best_other))
      best_other = tried[k].seconds;
  auto eligible = [&](std::size_t k) {
    if (pruned(k) || !rules.halves_levels(k)) return false;
    return !rules.tiles_rule(k) || best_other < 0 || 4 * tried[k].seconds <= 3 * best_other;
  };
  a.pruned_above = o.prune ? rules.bound() : 0;
  a.tiles_below = std::max(best_other, 0.0);
  Candidate best;
  bool have = false;
  for (std::size_t k = 0; k < tried.size(); ++k) {
    Candidate& c = tried[k];
    a.candidate_pruned.push_back(pruned(k));
    a.candidate_seconds.push_back(pruned(k) ? c.lower_bound : c.seconds);
    a.candidate_threads.push_back(pruned(k) ? c.lower_bound_threads : c.threads);
    a.candidate_levels.push_back(c.dag.levels);
    a.candidate_chosen_from.push_back(eligible(k));
    a.candidate_halves_levels.push_back(rules.halves_levels(k));
    if (!a.candidate_chosen_from.back()) continue;
    if (!have || c.seconds < best.seconds) {
      best = std::move(c);
      a.chosen = k;
      a.split = a.candidate_splits[k];
      have = true;
    }
  }
  // The chosen candidate's edges and predecessors (the same slots and levels as its model
  // saw) and its device plan, each on all threads, in ranges of kMinRange edges or
  // vertices: nothing else runs now.
  detail::place_edges(s.lower, best.p, best.s, cores, kMinRange);
  detail::add_predecessors(best.dag, s.lower, best.p, cores, kMinRange);
  a.total_slots = best.s.total_slots();
  a.plan = build_device_plan(s.lower, best.p, std::move(best.s), best.dag, s.reversed, best.threads);
  a.partition = best.stats;
  a.row_levels = input.levels;
  a.internal_edges = best.dag.internal_edges;
  a.external_edges = best.dag.external_edges;
  a.predicted_seconds = best.seconds;
  a.path_external_slots = best.path_external;
  a.path_internal_slots = best.path_internal;
  return a;
}

void refresh_values(Analysis& a, const LowerSystem& s) {
  if (s.reversed != a.plan.reversed)
    throw std::invalid_argument(std::string("sptrsv::refresh_values: the analysis was made of ") +
                                (a.plan.reversed ? "an upper" : "a lower") + " triangle, the system is " +
                                (s.reversed ? "an upper" : "a lower") + " one");
  refresh_values(a.plan, s.lower);
}

}  // namespace apiary::sptrsv
