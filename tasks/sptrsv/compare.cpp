#include "tasks/sptrsv/compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"
#include "runtime/device_buffer.hpp"
#include "sparse/reference.hpp"
#include "sparse/transform.hpp"

namespace apiary::sptrsv {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

// The right-hand sides: smooth and sign-changing, the same for every variant.
std::vector<double> make_rhs(index_t n, int rhs) {
  std::vector<double> b(static_cast<std::size_t>(n) * rhs);
  for (std::size_t k = 0; k < b.size(); ++k) b[k] = std::sin(0.001 * static_cast<double>(k)) + 1.5;
  return b;
}

// max over columns of ||T x - b|| / ||b|| with T the user's triangle.
double residual(const Csr<double>& t, const std::vector<double>& x, const std::vector<double>& b, int rhs) {
  const std::size_t n = static_cast<std::size_t>(t.rows);
  double worst = 0;
  for (int c = 0; c < rhs; ++c) {
    const std::span<const double> xc(x.data() + c * n, n), bc(b.data() + c * n, n);
    const double r = sparse::relative_residual(t, xc, bc);
    if (!std::isfinite(r)) return INFINITY;
    worst = std::max(worst, r);
  }
  return worst;
}

template <class Real>
VariantResult measure(Variant v, std::optional<Scheduler> sched, const LowerSystem& sys, const Analysis& an,
                      const Csr<double>& triangle, const std::vector<double>& b, const CompareOptions& o) {
  VariantResult r;
  r.variant = v;
  r.scheduler = sched;
  try {
    std::unique_ptr<TriangularSolver<Real>> solver;
    std::vector<double> setups;
    for (int rep = 0; rep < o.setup_reps; ++rep) {
      solver.reset();  // the last one's device memory goes first
      const auto t0 = Clock::now();
      solver = make_solver<Real>(v, sys, &an, {.scheduler = sched.value_or(Scheduler::megakernel)});
      APIARY_CUDA_CHECK(cudaDeviceSynchronize());
      setups.push_back(ms_since(t0));
    }
    r.setup_ms = median(setups);
    DeviceBuffer<Real> d_b(std::vector<Real>(b.begin(), b.end()));
    DeviceBuffer<Real> d_x(b.size());
    cudaStream_t stream = nullptr;
    std::vector<double> times, kernel;
    for (int rep = 0; rep <= o.reps; ++rep) {  // rep 0 warms up
      APIARY_CUDA_CHECK(cudaMemsetAsync(d_x.data(), 0xff, d_x.bytes(), stream));  // NaN: unwritten shows
      APIARY_CUDA_CHECK(cudaStreamSynchronize(stream));
      const auto t1 = Clock::now();
      solver->solve(d_b.data(), d_x.data(), o.rhs, stream);
      APIARY_CUDA_CHECK(cudaStreamSynchronize(stream));
      const double ms = ms_since(t1);
      if (rep == 0) {
        const std::vector<Real> x = d_x.to_host();
        r.residual = residual(triangle, std::vector<double>(x.begin(), x.end()), b, o.rhs);
        continue;
      }
      times.push_back(ms);
      if (auto s = solver->last_run()) {
        kernel.push_back(s->milliseconds);
        r.stats = *s;
      }
    }
    r.solve_ms = median(times);
    r.min_ms = *std::min_element(times.begin(), times.end());
    r.max_ms = *std::max_element(times.begin(), times.end());
    if (!kernel.empty()) r.kernel_ms = median(kernel);
  } catch (const std::exception& e) {
    r.error = e.what();
  }
  return r;
}

}  // namespace

std::string_view to_string(Precision p) { return p == Precision::single ? "float" : "double"; }

const VariantResult* Comparison::find(Variant v) const {
  for (const auto& r : results)
    if (r.variant == v && r.error.empty()) return &r;
  return nullptr;
}

std::optional<long long> Comparison::break_even(const VariantResult& r) const {
  const VariantResult* cu = find(Variant::cusparse);
  if (cu == nullptr || !r.error.empty()) return std::nullopt;
  const double mine = (uses_tassl(r.variant) ? analysis_ms : 0.0) + r.setup_ms;
  const double theirs = cu->setup_ms;
  if (mine <= theirs) return r.solve_ms <= cu->solve_ms ? std::optional<long long>(1) : std::nullopt;
  if (r.solve_ms >= cu->solve_ms) return std::nullopt;
  return static_cast<long long>(std::ceil((mine - theirs) / (cu->solve_ms - r.solve_ms)));
}

namespace {

// What compare() and analysis_only() share: the options checked, the system, the
// comparison's header.
Comparison start_comparison(const Csr<double>& a, const CompareOptions& o, LowerSystem* sys) {
  if (o.rhs < 1) throw std::invalid_argument("sptrsv: --rhs must be at least 1");
  if (o.reps < 1) throw std::invalid_argument("sptrsv: --reps must be at least 1");
  if (o.setup_reps < 1) throw std::invalid_argument("sptrsv: --setup-reps must be at least 1");
  Comparison c;
  *sys = make_lower_system(a, o.system);
  c.n = sys->lower.rows;
  c.nnz = static_cast<std::int64_t>(sys->lower.nnz());
  c.triangle = sys->triangle;
  c.unit_diagonal = o.system.unit_diagonal;
  c.precision = o.precision;
  c.rhs = o.rhs;
  return c;
}

// The TASSL analysis of the system in the comparison's precision (the last of
// o.setup_reps), the median of their wall times in c.analysis_ms.
Analysis timed_analysis(const LowerSystem& sys, const CompareOptions& o, Comparison& c) {
  const AnalysisOptions asked{.n_max = o.n_max, .threads = o.threads, .split = o.split, .prune = o.prune};
  Analysis an;
  std::vector<double> times;
  for (int rep = 0; rep < o.setup_reps; ++rep) {
    const auto t0 = Clock::now();
    an = analyze(sys, o.precision == Precision::single ? limits_of<float>(asked) : limits_of<double>(asked));
    times.push_back(ms_since(t0));
  }
  c.analysis_ms = median(times);
  return an;
}

// The analysis a comparison keeps: its statistics, without the plan's arrays.
Analysis statistics_of(Analysis an) {
  DevicePlan kept;
  kept.n_max = an.plan.n_max;
  kept.threads = an.plan.threads;
  kept.subgraphs = an.plan.subgraphs;
  kept.level_ptr = std::move(an.plan.level_ptr);
  an.plan = std::move(kept);
  return an;
}

}  // namespace

Comparison compare(const Csr<double>& a, const CompareOptions& o) {
  LowerSystem sys;
  Comparison c = start_comparison(a, o, &sys);
  if (const auto reason = no_device_reason()) throw std::runtime_error("no GPU available (" + *reason + ")");
  APIARY_CUDA_CHECK(cudaFree(nullptr));  // create the context now, not in the first variant's set-up time
  const bool single = o.precision == Precision::single;
  const Analysis an = timed_analysis(sys, o, c);
  const auto diag = o.system.unit_diagonal ? sparse::Diagonal::unit : sparse::Diagonal::keep;
  const Csr<double> triangle = sys.triangle == sparse::Triangle::lower ? sparse::lower_triangle(a, diag)
                                                                       : sparse::upper_triangle(a, diag);
  const std::vector<double> b = make_rhs(c.n, o.rhs);
  for (Variant v : o.variants) {
    std::vector<std::optional<Scheduler>> scheds{std::nullopt};
    if (uses_runtime(v)) scheds.assign(o.schedulers.begin(), o.schedulers.end());
    for (const auto& s : scheds)
      c.results.push_back(single ? measure<float>(v, s, sys, an, triangle, b, o)
                                 : measure<double>(v, s, sys, an, triangle, b, o));
  }
  c.analysis = statistics_of(an);
  return c;
}

Comparison analysis_only(const Csr<double>& a, const CompareOptions& o) {
  LowerSystem sys;
  Comparison c = start_comparison(a, o, &sys);
  c.analysis = statistics_of(timed_analysis(sys, o, c));
  return c;
}

namespace {

std::string label(const VariantResult& r) {
  std::string s(to_string(r.variant));
  if (r.scheduler) s += fmt::format(" ({})", to_string(*r.scheduler));
  return s;
}

}  // namespace

std::optional<std::string> result_error(const Comparison& c, double limit) {
  const VariantResult* cu = c.find(Variant::cusparse);
  for (const auto& r : c.results) {
    if (!r.error.empty()) return fmt::format("sptrsv: variant {} failed: {}", to_string(r.variant), r.error);
    if (r.residual <= limit) continue;
    std::string line = fmt::format("sptrsv: variant {} has residual {:.3e} above {:.1e}", to_string(r.variant),
                                   r.residual, limit);
    if (cu != nullptr && cu != &r && !(cu->residual <= limit))
      line += fmt::format("; cuSPARSE's is {:.3e}, so the system itself is likely ill-conditioned for this "
                          "right-hand side{}",
                          cu->residual, c.unit_diagonal ? " (--unit-diagonal ignores the stored diagonal)" : "");
    return line;
  }
  return std::nullopt;
}

std::string format_comparison(const Comparison& c) {
  const Analysis& a = c.analysis;
  const double share = a.internal_edges + a.external_edges == 0
                           ? 1.0
                           : static_cast<double>(a.internal_edges) / static_cast<double>(a.internal_edges + a.external_edges);
  std::string out = fmt::format("{} triangular system, n {}, nnz {} ({}), {}{} right-hand side(s)\n",
                                c.triangle == sparse::Triangle::lower ? "lower" : "upper", c.n, c.nnz,
                                to_string(c.precision), c.unit_diagonal ? "unit diagonal, " : "", c.rhs);
  out += fmt::format(
      "analysis {:.3f} ms: n_max {}{}, tasks of {} threads, split by {}, {} sub-graphs in {} sub-graph levels ({} "
      "row levels), internal edges {:.1f}%, {} slots; model: {:.4f} ms\n",
      c.analysis_ms, a.plan.n_max,
      std::adjacent_find(a.candidates.begin(), a.candidates.end(), std::not_equal_to<>()) != a.candidates.end()
          ? " (model)"
          : "",
      a.plan.threads, split_name(a.split),
      a.plan.subgraphs, a.plan.levels(),
      a.row_levels, 100.0 * share, a.total_slots, a.predicted_seconds * 1e3);
  if (c.results.empty()) return out;  // analysis_only
  const VariantResult* cu = c.find(Variant::cusparse);
  out += fmt::format("{:<26} {:>10} {:>11} {:>11} {:>9} {:>10} {:>10} {:>11}\n", "variant", "setup ms", "solve ms",
                     "kernel ms", "GFLOPS", "residual", "vs cuSPARSE", "break-even");
  for (const auto& r : c.results) {
    if (!r.error.empty()) {
      out += fmt::format("{:<26} failed: {}\n", label(r), r.error);
      continue;
    }
    const auto be = c.break_even(r);
    out += fmt::format("{:<26} {:>10.3f} {:>11.4f} {:>11} {:>9.2f} {:>10.2e} {:>10} {:>11}\n", label(r), r.setup_ms,
                       r.solve_ms, r.kernel_ms ? fmt::format("{:.4f}", *r.kernel_ms) : std::string("-"), c.gflops(r),
                       r.residual, cu ? fmt::format("{:.2f}x", cu->solve_ms / r.solve_ms) : std::string("-"),
                       r.variant == Variant::cusparse ? std::string("-")
                       : be                           ? fmt::format("{} solves", *be)
                                                      : std::string("never"));
  }
  out += "setup: solver construction (uploads; cuSPARSE: its analysis). TASSL variants add the analysis above.\n"
         "solve: median wall time of one solve() call for all right-hand sides, set-up of the run included.\n"
         "kernel: the runtime's kernels alone (megakernel: device clock, block 0's start to the last block's exit).\n";
  return out;
}

std::string format_candidates(const Analysis& a) {
  std::string out = fmt::format("{:>8} {:<10} {:>7} {:>8} {:>10}  (the model's candidates; * kept)\n", "n_max",
                                "split", "levels", "threads", "model ms");
  for (std::size_t k = 0; k < a.candidates.size(); ++k) {
    // Why the choice did not take it: analyze's rules, as it recorded them.
    std::string note = k == a.chosen ? "*" : "";
    if (a.candidate_pruned[k])
      note = fmt::format("pruned: its levels alone are above {:.4f} ms", a.pruned_above * 1e3);
    else if (!a.candidate_halves_levels[k])
      note = "passed over: does not halve the heuristic's levels at its n_max";
    else if (!a.candidate_chosen_from[k])
      note = fmt::format("passed over: not a quarter below {:.4f} ms", a.tiles_below * 1e3);
    // A pruned candidate's time is its lower bound (its levels' share): ">=".
    out += fmt::format("{:>8} {:<10} {:>7} {:>8} {:>10}{}{}\n", a.candidates[k], split_name(a.candidate_splits[k]),
                       a.candidate_levels[k], a.candidate_threads[k],
                       fmt::format("{}{:.4f}", a.candidate_pruned[k] ? ">=" : "", a.candidate_seconds[k] * 1e3),
                       note.empty() ? "" : "  ", note);
  }
  return out;
}

nlohmann::json to_json(const Comparison& c) {
  const Analysis& a = c.analysis;
  nlohmann::json results = nlohmann::json::array();
  for (const auto& r : c.results) {
    nlohmann::json j{{"variant", std::string(to_string(r.variant))}};
    if (r.scheduler) j["scheduler"] = std::string(to_string(*r.scheduler));
    if (!r.error.empty()) {
      j["error"] = r.error;
    } else {
      j["setup_ms"] = r.setup_ms;
      j["solve_ms"] = r.solve_ms;
      j["min_ms"] = r.min_ms;
      j["max_ms"] = r.max_ms;
      if (r.kernel_ms) j["kernel_ms"] = *r.kernel_ms;
      j["gflops"] = c.gflops(r);
      j["residual"] = r.residual;
      if (const auto be = c.break_even(r)) j["break_even_solves"] = *be;
      if (r.stats) j["run"] = apiary::to_json(*r.stats);
    }
    results.push_back(j);
  }
  std::vector<std::string> splits;
  for (Split s : a.candidate_splits) splits.emplace_back(split_name(s));
  return {{"n", c.n},
          {"nnz", c.nnz},
          {"triangle", c.triangle == sparse::Triangle::lower ? "lower" : "upper"},
          {"unit_diagonal", c.unit_diagonal},
          {"precision", std::string(to_string(c.precision))},
          {"rhs", c.rhs},
          {"analysis_ms", c.analysis_ms},
          {"n_max", a.plan.n_max},
          {"threads", a.plan.threads},
          {"split", split_name(a.split)},
          {"n_max_candidates", a.candidates},
          {"candidate_splits", splits},
          {"candidate_levels", a.candidate_levels},
          {"candidate_chosen_from", a.candidate_chosen_from},
          {"predicted_seconds", a.candidate_seconds},
          {"candidate_threads", a.candidate_threads},
          {"candidate_pruned", a.candidate_pruned},
          {"pruned_above_ms", a.pruned_above * 1e3},
          {"candidate_halves_levels", a.candidate_halves_levels},
          {"tiles_below_ms", a.tiles_below * 1e3},
          {"subgraphs", a.plan.subgraphs},
          {"subgraph_levels", a.plan.levels()},
          {"row_levels", a.row_levels},
          {"internal_edges", a.internal_edges},
          {"external_edges", a.external_edges},
          {"slots", a.total_slots},
          {"path_external_slots", a.path_external_slots},
          {"path_internal_slots", a.path_internal_slots},
          {"predicted_ms", a.predicted_seconds * 1e3},
          {"results", results}};
}

}  // namespace apiary::sptrsv
