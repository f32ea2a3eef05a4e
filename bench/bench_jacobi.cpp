// Jacobi benchmark: every variant (and every scheduler of the task variants) on
// generated diagonally dominant matrices from 10^4 to 10^7 non-zeros, a fixed number of
// iterations each (tolerance 0, so every variant does the same work), reporting the time
// per iteration, the ratio against the kernel-by-kernel and the CUDA-graph baselines
// measured in the same run, and the bandwidth bound: the bytes an iteration must move
// (problem.hpp) over the measured device-to-device copy bandwidth.
//
//   bench_jacobi                         # 10^4 .. 10^7 non-zeros, 200 iterations
//   bench_jacobi --nnz 1e5,1e6 --iterations 500 --schedulers all --json jacobi.json
//   bench_jacobi --nnz 1e6 --nnz-budget 512,2048,8192 --variants autonomous   # a budget sweep
//   bench_jacobi --nnz 1e7 --nnz-budget 4096,16384 --row-budget 256,1024        # and of rows
//   bench_jacobi --nnz 1e4,1e7 --nnz-budget auto,4096                            # the chosen budgets
//
// Every pair of budgets (entries, rows) is a partition of its own: the baselines run on
// it too, and the ratios compare variants on the same partition.
//
// Per matrix, one reference line: a cusparseSpMV of A (y = A x, the same matrix entries
// and one gather of x each, fewer vector bytes than an iteration) against the same
// bound. It says how much of the bound a tuned library reaches on that sparsity pattern
// (random columns gather x in 32-byte sectors of the L2). `--spec` adds matrices by
// generator spec (sparse/generators.hpp), e.g. poisson3d:150 for columns with locality.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <cuda_runtime_api.h>
#include <cusparse.h>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"
#include "runtime/device_buffer.hpp"
#include "runtime/event_timer.hpp"
#include "runtime/trace.hpp"
#include "sparse/generators.hpp"
#include "tasks/jacobi/jacobi.hpp"
#include "tasks/sptrsv/cusparse_check.hpp"

namespace {

using namespace apiary;
using jacobi::Variant;

// Device-to-device copy bandwidth (read + write bytes per second) of a buffer well
// beyond the L2, best of a few copies.
double copy_bandwidth() {
  const std::size_t bytes = std::size_t{1} << 30;
  DeviceBuffer<unsigned char> a(bytes), b(bytes);
  a.fill_zero();
  EventTimer timer;
  double best = 0;
  for (int rep = 0; rep < 5; ++rep) {
    timer.start();
    APIARY_CUDA_CHECK(cudaMemcpyAsync(b.data(), a.data(), bytes, cudaMemcpyDeviceToDevice));
    timer.stop();
    const double s = timer.elapsed_ms() * 1e-3;
    best = std::max(best, 2.0 * static_cast<double>(bytes) / s);
  }
  return best;
}

// Time of one cusparseSpMV y = A x (the default algorithm): the median over `reps` timings
// of 20 calls each, after one untimed call.
double cusparse_spmv_ms(const sparse::Csr<double>& a, int reps) {
  DeviceBuffer<sparse::index_t> row_ptr(std::span<const sparse::index_t>(a.row_ptr));
  DeviceBuffer<sparse::index_t> col(std::span<const sparse::index_t>(a.col));
  DeviceBuffer<double> val(std::span<const double>(a.val));
  DeviceBuffer<double> x(std::vector<double>(static_cast<std::size_t>(a.cols), 1.0));
  DeviceBuffer<double> y(static_cast<std::size_t>(a.rows));
  struct Handles {
    cusparseHandle_t handle = nullptr;
    cusparseSpMatDescr_t mat = nullptr;
    cusparseDnVecDescr_t x = nullptr, y = nullptr;
    ~Handles() {
      if (y != nullptr) cusparseDestroyDnVec(y);
      if (x != nullptr) cusparseDestroyDnVec(x);
      if (mat != nullptr) cusparseDestroySpMat(mat);
      if (handle != nullptr) cusparseDestroy(handle);
    }
  } h;
  APIARY_CUSPARSE_CHECK(cusparseCreate(&h.handle));
  APIARY_CUSPARSE_CHECK(cusparseCreateCsr(&h.mat, a.rows, a.cols, static_cast<std::int64_t>(a.nnz()), row_ptr.data(),
                                          col.data(), val.data(), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                          CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
  APIARY_CUSPARSE_CHECK(cusparseCreateDnVec(&h.x, a.cols, x.data(), CUDA_R_64F));
  APIARY_CUSPARSE_CHECK(cusparseCreateDnVec(&h.y, a.rows, y.data(), CUDA_R_64F));
  const double one = 1, zero = 0;
  std::size_t bytes = 0;
  APIARY_CUSPARSE_CHECK(cusparseSpMV_bufferSize(h.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, h.mat, h.x, &zero,
                                                h.y, CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
  DeviceBuffer<unsigned char> work(std::max<std::size_t>(bytes, 1));
  auto spmv = [&] {
    APIARY_CUSPARSE_CHECK(cusparseSpMV(h.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, h.mat, h.x, &zero, h.y,
                                       CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, work.data()));
  };
  spmv();
  constexpr int calls = 20;
  EventTimer timer;
  std::vector<double> times;
  for (int rep = 0; rep < reps; ++rep) {
    timer.start();
    for (int i = 0; i < calls; ++i) spmv();
    timer.stop();
    times.push_back(timer.elapsed_ms() / calls);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

struct Row {
  std::string matrix;
  std::size_t nnz = 0;
  int nnz_budget = 0;
  int row_budget = 0;
  bool auto_budget = false;  // chosen by jacobi::auto_budgets (--nnz-budget auto)
  std::size_t chunks = 0;
  std::string variant;
  std::string scheduler;
  double ms_per_iteration = 0;  // median over the solves
  double min_ms = 0, max_ms = 0;  // range of the time per iteration over the solves
  double gb_per_s = 0;
  double vs_kernels = 0;  // kernels' time / this time
  double vs_graph = 0;
  double of_bound = 0;  // bound time / this time
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Jacobi: every variant on generated matrices, time per iteration against the baselines"};
  std::vector<double> nnz_targets{1e4, 1e5, 1e6, 1e7};
  int iterations = 200;
  int reps = 3;
  std::string scheduler_text = "megakernel";
  std::vector<int> budgets{jacobi::PartitionOptions{}.nnz_budget};
  std::vector<int> row_budgets{jacobi::PartitionOptions{}.row_budget};
  std::vector<std::string> variant_names;
  int blocks_per_sm = 0;
  std::string json_path;
  std::string trace_prefix;
  std::vector<std::string> extra_specs;
  app.add_option("--nnz", nnz_targets, "approximate non-zeros of each matrix (dd:N:11:27)")->delimiter(',');
  app.add_option("--spec", extra_specs,
                 "further matrices by generator spec, e.g. poisson3d:150 (alone unless --nnz is given too)")
      ->delimiter(',');
  app.add_option("--iterations", iterations, "iterations per solve (tolerance 0)")->check(CLI::PositiveNumber);
  app.add_option("--reps", reps, "timed solves per variant (median)")->check(CLI::PositiveNumber);
  app.add_option("--schedulers", scheduler_text, "megakernel, timesliced, controller or all");
  app.add_option("--nnz-budget", budgets,
                 "most entries of A per task, or auto (jacobi::auto_budgets, with the row budget unless "
                 "--row-budget is given); a list runs each as its own partition")
      ->delimiter(',')
      ->type_name("N|auto")
      ->transform(CLI::Transformer({{"auto", "0"}}))
      ->check(CLI::Range(2, 1 << 30) | CLI::IsMember({0}));
  app.add_option("--row-budget", row_budgets, "most rows per task; a list runs each with every nnz budget")
      ->delimiter(',')
      ->capture_default_str()
      ->check(CLI::Range(1, 1 << 30));
  app.add_option("--variants", variant_names, "task variants to run (default all); kernels and graph always run")
      ->delimiter(',');
  app.add_option("--blocks-per-sm", blocks_per_sm,
                 "megakernel blocks per SM (0: about one per row task of an iteration; a large number: all that fit)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--json", json_path, "also write the rows as JSON");
  app.add_option("--trace", trace_prefix,
                 "after the timed solves of a task variant, one traced solve (a solver of its own) written as a "
                 "Chrome trace to PREFIX-<matrix>-<budget>-<variant>-<scheduler>.json");
  CLI11_PARSE(app, argc, argv);
  if (!extra_specs.empty() && app.count("--nnz") == 0) nnz_targets.clear();
  std::vector<std::pair<int, int>> budget_pairs;  // (entries, rows), rows varying fastest
  for (int budget : budgets)
    for (int rows : row_budgets) budget_pairs.emplace_back(budget, rows);
  std::vector<std::string> specs;
  // 19 entries per row on average (11..27).
  for (double target : nnz_targets)
    specs.push_back(fmt::format("dd:{}:11:27", static_cast<sparse::index_t>(std::max(100.0, std::round(target / 19.0)))));
  specs.insert(specs.end(), extra_specs.begin(), extra_specs.end());

  try {
    if (const auto reason = no_device_reason()) {
      fmt::print("bench_jacobi: skipped: {}\n", *reason);
      return 77;
    }
    std::vector<Scheduler> schedulers;
    if (scheduler_text == "all")
      schedulers = available_schedulers();
    else if (const auto s = parse_scheduler(scheduler_text))
      schedulers = {*s};
    else
      throw std::invalid_argument("unknown scheduler '" + scheduler_text + "'");
    std::vector<Variant> variants;
    for (Variant v : jacobi::kAllVariants) {
      const bool named = std::find(variant_names.begin(), variant_names.end(), to_string(v)) != variant_names.end();
      if (!jacobi::uses_scheduler(v) || variant_names.empty() || named) variants.push_back(v);
    }
    for (const std::string& name : variant_names)
      if (!jacobi::parse_variant(name)) throw std::invalid_argument("unknown variant '" + name + "'");

    const DeviceInfo device = query_device();
    const int multiprocessors = device.multiprocessors;
    fmt::print("device   {}\n", describe(device));
    const double bandwidth = copy_bandwidth();
    fmt::print("copy     {:.0f} GB/s device to device (read + write)\n", bandwidth / 1e9);
    fmt::print("{} iterations per solve, median of {} solves\n\n", iterations, reps);
    fmt::print("{:<22} {:>10} {:>6} {:>5} {:>7} {:<14} {:<11} {:>10} {:>8} {:>10} {:>9} {:>9}\n", "matrix", "nnz",
               "budget", "rows", "tasks", "variant", "scheduler", "us/iter", "GB/s", "vs kernels", "vs graph",
               "of bound");

    std::vector<Row> rows;
    nlohmann::json references = nlohmann::json::array();
    for (const std::string& spec : specs) {
      const sparse::Csr<double> a = sparse::generate<double>(spec);
      const std::vector<double> b = jacobi::make_rhs(jacobi::Rhs::random, a.rows);
      {
        const double bytes = jacobi::bytes_per_iteration(jacobi::split_diagonal(a));
        const double spmv_ms = cusparse_spmv_ms(a, std::max(reps, 3));
        const double bound_ms = bytes / bandwidth * 1e3;
        fmt::print("{:<22} {:>10} reference: one cusparseSpMV of A {:.2f} us, {:.0f}% of this bound ({:.2f} us)\n",
                   spec, a.nnz(), spmv_ms * 1e3, 100 * bound_ms / spmv_ms, bound_ms * 1e3);
        references.push_back({{"matrix", spec},
                              {"nnz", a.nnz()},
                              {"cusparse_spmv_ms", spmv_ms},
                              {"bound_ms", bound_ms},
                              {"spmv_fraction_of_bound", bound_ms / spmv_ms}});
      }
      for (auto [budget, row_budget] : budget_pairs) {
        const bool auto_budget = budget == 0;
        if (auto_budget) {
          const jacobi::PartitionOptions chosen = jacobi::auto_budgets(a.rows, a.nnz(), multiprocessors);
          budget = chosen.nnz_budget;
          if (app.count("--row-budget") == 0) row_budget = chosen.row_budget;
        }
        jacobi::JacobiOptions o;
        o.tolerance = 0;
        o.max_iterations = iterations;
        o.partition.nnz_budget = budget;
        o.partition.row_budget = row_budget;
        o.run.blocks_per_sm = blocks_per_sm;
        jacobi::JacobiSolver solver(a, b, o);
        const double bytes = jacobi::bytes_per_iteration(solver.problem());
        const double bound_ms = bytes / bandwidth * 1e3;

        std::vector<Row> here;
        double kernels_ms = 0, graph_ms = 0;
        for (Variant v : variants) {
          const std::vector<Scheduler> for_variant =
              jacobi::uses_scheduler(v) ? schedulers : std::vector<Scheduler>{Scheduler::megakernel};
          for (Scheduler s : for_variant) {
            std::vector<double> times;
            for (int rep = 0; rep <= reps; ++rep) {
              const jacobi::JacobiRun run = solver.solve(v, s);
              if (run.iterations != iterations) throw std::runtime_error("a solve stopped early");
              if (rep > 0) times.push_back(run.milliseconds / run.iterations);
            }
            std::sort(times.begin(), times.end());
            Row r;
            r.matrix = spec;
            r.nnz = a.nnz();
            r.nnz_budget = budget;
            r.row_budget = row_budget;
            r.auto_budget = auto_budget;
            r.chunks = solver.partition().chunks.size();
            r.variant = std::string(to_string(v));
            r.scheduler = jacobi::uses_scheduler(v) ? std::string(to_string(s)) : "-";
            r.ms_per_iteration = times[times.size() / 2];
            r.min_ms = times.front();
            r.max_ms = times.back();
            r.gb_per_s = bytes / (r.ms_per_iteration * 1e-3) / 1e9;
            r.of_bound = bound_ms / r.ms_per_iteration;
            if (!trace_prefix.empty() && jacobi::uses_scheduler(v)) {
              jacobi::JacobiOptions traced = o;
              traced.run.trace = true;
              const jacobi::JacobiRun run = jacobi::JacobiSolver(a, b, traced).solve(v, s);
              write_chrome_trace(fmt::format("{}-{}-{}{}-{}-{}.json", trace_prefix, spec, auto_budget ? "a" : "", budget,
                                             r.variant, r.scheduler),
                                 run.trace, run.queue_names, r.scheduler);
            }
            if (v == Variant::kernels) kernels_ms = r.ms_per_iteration;
            if (v == Variant::graph) graph_ms = r.ms_per_iteration;
            here.push_back(r);
          }
        }
        for (Row& r : here) {
          r.vs_kernels = kernels_ms / r.ms_per_iteration;
          r.vs_graph = graph_ms / r.ms_per_iteration;
          fmt::print("{:<22} {:>10} {:>6} {:>5} {:>7} {:<14} {:<11} {:>10.2f} {:>8.1f} {:>9.2f}x {:>8.2f}x {:>8.0f}%\n",
                     r.matrix, r.nnz, fmt::format("{}{}", r.auto_budget ? "a" : "", r.nnz_budget), r.row_budget, r.chunks, r.variant, r.scheduler,
                     r.ms_per_iteration * 1e3, r.gb_per_s, r.vs_kernels, r.vs_graph, 100 * r.of_bound);
          rows.push_back(r);
        }
        std::fflush(stdout);
      }
    }
    fmt::print(
        "\nbudget aN: N chosen by --nnz-budget auto; "
        "vs kernels / vs graph: the baseline's time per iteration over this one's (above 1: faster); "
        "of bound: the copy-bandwidth time of the bytes an iteration must move over the measured time; "
        "reference: a cusparseSpMV of A on the same GPU against the same bound\n");

    if (!json_path.empty()) {
      nlohmann::json out = nlohmann::json::array();
      for (const Row& r : rows)
        out.push_back({{"matrix", r.matrix},
                       {"nnz", r.nnz},
                       {"nnz_budget", r.nnz_budget},
                       {"row_budget", r.row_budget},
                       {"auto_budget", r.auto_budget},
                       {"tasks", r.chunks},
                       {"variant", r.variant},
                       {"scheduler", r.scheduler},
                       {"ms_per_iteration", r.ms_per_iteration},
                       {"ms_per_iteration_min", r.min_ms},
                       {"ms_per_iteration_max", r.max_ms},
                       {"gb_per_s", r.gb_per_s},
                       {"vs_kernels", r.vs_kernels},
                       {"vs_graph", r.vs_graph},
                       {"fraction_of_bound", r.of_bound}});
      std::ofstream(json_path)
          << nlohmann::json{{"copy_bandwidth", bandwidth},
                            {"iterations", iterations},
                            {"blocks_per_sm", blocks_per_sm},
                            {"rows", out},
                            {"references", references}}
                 .dump(2)
          << '\n';
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "bench_jacobi: {}\n", e.what());
    return 1;
  }
  return 0;
}
