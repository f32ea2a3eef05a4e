// `apiary pcg`: preconditioned conjugate gradients with IC(0) (triangular solves from
// the triangular-solve module) in several orderings, against PCG built from cuSPARSE,
// Jacobi-PCG and plain CG. docs/pcg.md.
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "apps/commands.hpp"
#include "apps/matrix_source.hpp"
#include "runtime/device.hpp"
#include "tasks/pcg/compare.hpp"

namespace apiary::cli {

namespace {

struct PcgArgs {
  std::string matrix;
  std::string order = "all";
  std::string trsv = "tassl-deps";
  std::string scheduler = "megakernel";
  std::string precond = "all";
  std::string loop = "all";
  pcg::StageBudgets budgets;
  int blocks_per_sm = 0;
  double tol = 1e-8;
  int max_iter = 0;
  double shift = 0;
  int reps = 1;
  bool json = false;
};

void run_pcg(const PcgArgs& args) {
  pcg::CompareOptions o;
  o.orders = pcg::parse_order_list(args.order);
  o.methods = pcg::parse_preconditioner_list(args.precond);
  o.loops = pcg::parse_loop_list(args.loop);
  o.device.budgets = args.budgets;
  o.device.blocks_per_sm = args.blocks_per_sm;
  const auto v = sptrsv::parse_variant(args.trsv);
  if (!v)
    throw std::invalid_argument("unknown --trsv variant '" + args.trsv +
                                "' (tassl-deps, tassl-phases, tassl-kernels, levelset, syncfree, cusparse)");
  o.device.trsv = *v;
  const auto sched = parse_scheduler(args.scheduler);
  if (!sched) throw std::invalid_argument("unknown scheduler '" + args.scheduler + "' (megakernel, timesliced, controller)");
  o.device.scheduler = *sched;
  o.pcg.tolerance = args.tol;
  o.pcg.max_iterations = args.max_iter;
  o.shift = args.shift;
  o.reps = args.reps;
  // Input errors (file, symmetry, options, IC(0) breakdown) come first; compare() then
  // checks for a device.
  const LoadedMatrix m = load_matrix(args.matrix);
  const pcg::Comparison c = pcg::compare(m.a, o);
  if (args.json) {
    nlohmann::json j = pcg::to_json(c);
    j["matrix"] = m.name;
    j["device"] = describe(query_device());
    fmt::print("{}\n", j.dump(2));
  } else {
    fmt::print("device   {}\nmatrix   {}\n{}", describe(query_device()), m.name, pcg::format_comparison(c));
  }
  // After the report: a failed or non-converged solver is an error (exit 1).
  for (const auto& r : c.results) {
    const std::string who =
        fmt::format("{} ({} loop) with {} ordering", to_string(r.method), to_string(r.loop), to_string(r.order));
    if (!r.error.empty()) throw std::runtime_error(fmt::format("pcg: {} failed: {}", who, r.error));
    if (r.stop != pcg::Stop::converged) throw std::runtime_error(fmt::format("pcg: {}: {}", who, r.reason));
  }
}

}  // namespace

void add_pcg_command(CLI::App& app) {
  auto args = std::make_shared<PcgArgs>();
  CLI::App* cmd = app.add_subcommand(
      "pcg", "Preconditioned conjugate gradients with IC(0) (natural, RCM or colour ordering), against cuSPARSE PCG, "
             "Jacobi-PCG and CG");
  cmd->add_option("matrix", args->matrix, kMatrixArgumentHelp)->required();
  cmd->add_option("--order", args->order, "natural, rcm, color, a comma-separated list, or all")->capture_default_str();
  cmd->add_option("--precond", args->precond,
                  "ic0 (with the cuSPARSE-built IC(0) PCG as baseline), jacobi, none, a comma-separated list, or all")
      ->capture_default_str();
  cmd->add_option("--loop", args->loop,
                  "host (kernel by kernel, driven from the host), tasks (the whole iteration as one task program), "
                  "a comma-separated list, or all; cusparse-ic0 always runs in the host loop")
      ->capture_default_str();
  cmd->add_option("--trsv", args->trsv,
                  "triangular-solve variant for ic0 in the host loop: tassl-deps, tassl-phases, tassl-kernels, "
                  "levelset, syncfree, cusparse")
      ->capture_default_str();
  cmd->add_option("--scheduler", args->scheduler,
                  "for the task loop and the runtime trsv variants: megakernel, timesliced, controller")
      ->capture_default_str();
  cmd->add_option("--task-nnz", args->budgets.nnz,
                  "task loop: most entries per task of a sparse stage (0: automatic, one wave of tasks per stage)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--task-rows", args->budgets.rows, "task loop: most rows per task of a sparse stage (0: no limit)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--task-vector-rows", args->budgets.vector_rows,
                  "task loop: rows per task of the update stage (0: automatic, one wave of tasks)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--blocks-per-sm", args->blocks_per_sm, "task loop, megakernel: resident blocks per SM (0: all that fit)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--tol", args->tol, "stop when ||r||/||b|| < tol")->capture_default_str();
  cmd->add_option("--max-iter", args->max_iter, "iteration limit (0: n)")->capture_default_str();
  cmd->add_option("--shift", args->shift, "IC(0) of A + shift diag(A), for matrices where IC(0) breaks down")
      ->capture_default_str();
  cmd->add_option("--reps", args->reps, "timed solves per solver after a warm-up (median reported)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_flag("--json", args->json, "print the results as JSON");
  cmd->callback([args] { run_pcg(*args); });
}

}  // namespace apiary::cli
