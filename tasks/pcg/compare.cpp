#include "tasks/pcg/compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"
#include "sparse/reference.hpp"
#include "sparse/transform.hpp"
#include "tasks/pcg/ic0.hpp"

namespace apiary::pcg {

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

index_t bandwidth_of(const Csr<double>& a) {
  index_t bw = 0;
  for (index_t i = 0; i < a.rows; ++i)
    for (index_t k = a.row_begin(i); k < a.row_end(i); ++k) bw = std::max(bw, static_cast<index_t>(std::abs(a.col[k] - i)));
  return bw;
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = s.find(',', start);
    out.push_back(s.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

struct Prepared {
  std::vector<index_t> perm;
  Csr<double> a;       // P A P^T
  Csr<double> factor;  // its IC(0) L, when needed
};

}  // namespace

std::vector<double> default_rhs(index_t n) {
  std::vector<double> b(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = std::sin(0.001 * static_cast<double>(i)) + 1.5;
  return b;
}

const MethodResult* Comparison::baseline(Order o) const {
  for (const auto& r : results)
    if (r.order == o && r.method == Method::cusparse_ic0 && r.loop == Loop::host && r.ok()) return &r;
  return nullptr;
}

namespace {

// Each entry of a comma-separated list through one(entry, out); "all" is every value.
template <class T, class One>
std::vector<T> parse_list(const std::string& s, std::vector<T> all, One&& one) {
  if (s == "all") return all;
  std::vector<T> out;
  for (const std::string& entry : split(s)) one(entry, out);
  return out;
}

}  // namespace

std::vector<Order> parse_order_list(const std::string& s) {
  return parse_list<Order>(s, {std::begin(kOrders), std::end(kOrders)}, [](const std::string& one, auto& out) {
    const auto o = parse_order(one);
    if (!o) throw std::invalid_argument("unknown ordering '" + one + "' (natural, rcm, color, a comma-separated list, or all)");
    out.push_back(*o);
  });
}

std::vector<Method> parse_preconditioner_list(const std::string& s) {
  return parse_list<Method>(s, {kMethods.begin(), kMethods.end()}, [](const std::string& one, auto& out) {
    if (one == "ic0") {
      out.push_back(Method::ic0);
      out.push_back(Method::cusparse_ic0);  // the baseline comes with it
    } else if (one == "jacobi") {
      out.push_back(Method::jacobi);
    } else if (one == "none") {
      out.push_back(Method::cg);
    } else {
      throw std::invalid_argument("unknown preconditioner '" + one + "' (ic0, jacobi, none, a comma-separated list, or all)");
    }
  });
}

std::vector<Loop> parse_loop_list(const std::string& s) {
  return parse_list<Loop>(s, {kLoops.begin(), kLoops.end()}, [](const std::string& one, auto& out) {
    const auto l = parse_loop(one);
    if (!l) throw std::invalid_argument("unknown loop '" + one + "' (host, tasks, a comma-separated list, or all)");
    out.push_back(*l);
  });
}

Comparison compare(const Csr<double>& a, const CompareOptions& o) {
  sparse::require_square(a, "pcg");
  if (a.rows == 0) throw std::invalid_argument("pcg: the matrix is empty");
  if (!sparse::is_symmetric(a))
    throw std::invalid_argument("pcg: the matrix is not symmetric (PCG needs a symmetric positive definite matrix)");
  if (o.reps < 1) throw std::invalid_argument("pcg: --reps must be at least 1");
  if (!(o.shift >= 0)) throw std::invalid_argument(fmt::format("pcg: --shift must be >= 0, got {}", o.shift));
  if (o.orders.empty() || o.methods.empty() || o.loops.empty()) throw std::invalid_argument("pcg: nothing to run");
  checked_iteration_limit(o.pcg, a.rows);
  const bool need_factor = std::any_of(o.methods.begin(), o.methods.end(), uses_factor);
  const bool need_diag = std::find(o.methods.begin(), o.methods.end(), Method::jacobi) != o.methods.end();
  if (need_diag) positive_diagonal(a);

  Comparison c;
  c.n = a.rows;
  c.nnz = static_cast<std::int64_t>(a.nnz());
  c.options = o;
  // Host preparation of every ordering first: a breakdown is an input error.
  std::vector<Prepared> prepared;
  for (Order order : o.orders) {
    Ordering ord = make_ordering(a, order);
    Prepared p;
    p.a = sparse::permute_symmetric(a, std::span<const index_t>(ord.perm));
    OrderInfo info{.order = order, .ordering_ms = ord.ms, .colors = ord.colors, .bandwidth = bandwidth_of(p.a)};
    if (need_factor) {
      const auto t0 = std::chrono::steady_clock::now();
      try {
        p.factor = ic0_reference(p.a, o.shift);
      } catch (const Ic0Breakdown& e) {
        throw std::runtime_error(with_original_row(e, ord.perm[e.row()], std::string(to_string(order))));
      }
      info.factor_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      info.factor_nnz = static_cast<std::int64_t>(p.factor.nnz());
    }
    p.perm = std::move(ord.perm);
    prepared.push_back(std::move(p));
    c.orders.push_back(info);
  }

  if (const auto reason = no_device_reason()) throw std::runtime_error("no GPU available (" + *reason + ")");
  APIARY_CUDA_CHECK(cudaFree(nullptr));  // the context now, not in the first set-up time
  const std::vector<double> b = default_rhs(a.rows);
  for (std::size_t oi = 0; oi < o.orders.size(); ++oi) {
    const Prepared& p = prepared[oi];
    const std::vector<double> pb = sparse::permute_vector(std::span<const double>(b), std::span<const index_t>(p.perm));
    for (Method m : o.methods)
      // The cuSPARSE baseline runs in the host loop whatever the loops asked for.
      for (Loop loop : m == Method::cusparse_ic0 ? std::vector<Loop>{Loop::host} : o.loops) {
        MethodResult r;
        r.order = o.orders[oi];
        r.method = m;
        r.loop = loop;
        try {
          DeviceOptions device = o.device;
          device.loop = loop;
          PcgSolver solver(p.a, m, uses_factor(m) ? &p.factor : nullptr, device);
          r.setup_ms = solver.setup_ms();
          r.analysis_ms = solver.analysis_ms();
          PcgResult res = solver.solve(pb, o.pcg);  // warm-up, and the reported run
          std::vector<double> times;
          for (int rep = 0; rep < o.reps; ++rep) times.push_back(solver.solve(pb, o.pcg).milliseconds);
          r.solve_ms = median(times);
          r.min_ms = *std::min_element(times.begin(), times.end());
          r.max_ms = *std::max_element(times.begin(), times.end());
          r.iterations = res.iterations;
          r.stop = res.stop;
          r.reason = res.reason;
          r.residual = res.residual;
          r.stage_us = res.stage_us;
          r.task_loop = solver.task_loop_info();
          std::vector<double> x(res.x.size());
          for (std::size_t i = 0; i < x.size(); ++i) x[p.perm[i]] = res.x[i];
          r.true_residual = sparse::relative_residual(a, std::span<const double>(x), std::span<const double>(b));
        } catch (const std::exception& e) {
          r.error = e.what();
        }
        c.results.push_back(std::move(r));
      }
  }
  return c;
}

std::string format_comparison(const Comparison& c) {
  const CompareOptions& o = c.options;
  std::string out = fmt::format(
      "SPD matrix n {}, nnz {}; tolerance {:.1e} on ||r||/||b||, at most {} iterations; IC(0) shift {}; trsv {} ({}); "
      "{} timed solve(s) after a warm-up\n",
      c.n, c.nnz, o.pcg.tolerance, o.pcg.max_iterations == 0 ? c.n : o.pcg.max_iterations, o.shift,
      to_string(o.device.trsv), to_string(o.device.scheduler), o.reps);
  for (const auto& info : c.orders) {
    out += fmt::format("ordering {:<8} {:.3f} ms (host), bandwidth {}", to_string(info.order), info.ordering_ms,
                       info.bandwidth);
    if (info.order == Order::color) out += fmt::format(", {} colours", info.colors);
    if (info.factor_nnz > 0)
      out += fmt::format("; IC(0) on the host {:.3f} ms, nnz(L) {}", info.factor_ms, info.factor_nnz);
    out += "\n";
  }
  out += fmt::format("{:<8} {:<13} {:<5} {:>6} {:>10} {:>11} {:>10} {:>10} {:>10} {:>11}  {}\n", "ordering", "solver",
                     "loop", "iter", "setup ms", "solve ms", "ms/iter", "||r||/||b||", "true res", "vs cuSPARSE", "status");
  for (const auto& r : c.results) {
    if (!r.error.empty()) {
      out += fmt::format("{:<8} {:<13} {:<5} failed: {}\n", to_string(r.order), to_string(r.method), to_string(r.loop),
                         r.error);
      continue;
    }
    const MethodResult* base = c.baseline(r.order);
    out += fmt::format("{:<8} {:<13} {:<5} {:>6} {:>10.3f} {:>11.3f} {:>10.4f} {:>11.2e} {:>10.2e} {:>11}  {}\n",
                       to_string(r.order), to_string(r.method), to_string(r.loop), r.iterations, r.setup_ms, r.solve_ms,
                       r.ms_per_iteration(), r.residual, r.true_residual,
                       base != nullptr && r.ok() && r.solve_ms > 0 ? fmt::format("{:.2f}x", base->solve_ms / r.solve_ms)
                                                                   : std::string("-"),
                       r.stop == Stop::converged ? std::string("converged") : r.reason);
  }
  for (const auto& r : c.results) {
    if (r.stage_us.empty()) continue;
    const TaskLoopInfo& t = r.task_loop;
    const auto budget = [](int b) { return b > 0 ? std::to_string(b) : std::string("auto"); };
    out += fmt::format("{} {} tasks: {} stages, {} tasks per iteration (budgets: nnz {}, rows {}, update rows {}, "
                       "target {} tasks per stage; {} blocks)\n  us per iteration:",
                       to_string(r.order), to_string(r.method), t.stages, t.tasks, budget(t.budgets.nnz),
                       budget(t.budgets.rows), budget(t.budgets.vector_rows), t.budgets.tasks, t.blocks);
    for (const auto& [kind, us] : r.stage_us) out += fmt::format(" {} {:.1f}", kind, us);
    out += "\n";
  }
  out += "setup: solver construction (uploads, cuSPARSE/cuBLAS set-up; ic0 host loop: host triangular-solve analysis "
         "of L and L^T; task loop: the stage plan). solve: median wall time of the iteration loop (host loop: three "
         "host reads per iteration; tasks: one task program, no host read until it ends). vs cuSPARSE: cusparse-ic0 "
         "solve time of the same ordering / this one.\n";
  return out;
}

nlohmann::json to_json(const Comparison& c) {
  nlohmann::json orders = nlohmann::json::array();
  for (const auto& info : c.orders) {
    nlohmann::json j{{"order", std::string(to_string(info.order))},
                     {"ordering_ms", info.ordering_ms},
                     {"bandwidth", info.bandwidth}};
    if (info.order == Order::color) j["colors"] = info.colors;
    if (info.factor_nnz > 0) {
      j["ic0_host_ms"] = info.factor_ms;
      j["ic0_nnz"] = info.factor_nnz;
    }
    orders.push_back(j);
  }
  nlohmann::json results = nlohmann::json::array();
  for (const auto& r : c.results) {
    nlohmann::json j{{"order", std::string(to_string(r.order))},
                     {"solver", std::string(to_string(r.method))},
                     {"loop", std::string(to_string(r.loop))}};
    if (!r.error.empty()) {
      j["error"] = r.error;
    } else {
      j["iterations"] = r.iterations;
      j["status"] = std::string(to_string(r.stop));
      if (!r.reason.empty()) j["reason"] = r.reason;
      j["setup_ms"] = r.setup_ms;
      j["analysis_ms"] = r.analysis_ms;
      j["solve_ms"] = r.solve_ms;
      j["min_ms"] = r.min_ms;
      j["max_ms"] = r.max_ms;
      j["ms_per_iteration"] = r.ms_per_iteration();
      j["residual"] = r.residual;
      j["true_residual"] = r.true_residual;
      if (!r.stage_us.empty()) {
        nlohmann::json stages = nlohmann::json::object();
        for (const auto& [kind, us] : r.stage_us) stages[kind] = us;
        j["stage_us"] = stages;
        const TaskLoopInfo& t = r.task_loop;
        j["task_loop"] = {{"stages", t.stages},         {"tasks", t.tasks},
                          {"nnz_budget", t.budgets.nnz}, {"rows_budget", t.budgets.rows},
                          {"update_rows", t.budgets.vector_rows}, {"target_tasks", t.budgets.tasks},
                          {"blocks", t.blocks}};
      }
      if (const MethodResult* base = c.baseline(r.order); base != nullptr && r.ok() && r.solve_ms > 0)
        j["speedup_vs_cusparse"] = base->solve_ms / r.solve_ms;
    }
    results.push_back(j);
  }
  return {{"n", c.n},
          {"nnz", c.nnz},
          {"tolerance", c.options.pcg.tolerance},
          {"max_iterations", c.options.pcg.max_iterations == 0 ? c.n : c.options.pcg.max_iterations},
          {"shift", c.options.shift},
          {"trsv", std::string(to_string(c.options.device.trsv))},
          {"scheduler", std::string(to_string(c.options.device.scheduler))},
          {"reps", c.options.reps},
          {"orders", orders},
          {"results", results}};
}

}  // namespace apiary::pcg
