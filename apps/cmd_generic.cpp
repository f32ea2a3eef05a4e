// `apiary generic`: the generic test program (tasks/generic) under each mode and
// scheduler, verified, with a comparison table and optional traces.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "apps/commands.hpp"
#include "apps/options.hpp"
#include "runtime/device.hpp"
#include "tasks/generic/builtin_configs.hpp"
#include "tasks/generic/generic.hpp"

namespace apiary::cli {

namespace {

struct GenericArgs {
  std::string config = "four_types";
  std::string mode = "both";
  std::string scheduler = "all";
  std::string trace;
  int reps = 3;
  bool json = false;
  bool no_graph = false;
};

generic::GenericConfig load_config(const std::string& spec) {
  for (const auto& b : generic::kBuiltinConfigs)
    if (b.name == spec) return generic::parse_generic_config(b.json, std::string(b.name));
  if (!std::filesystem::exists(spec))
    throw std::invalid_argument(fmt::format("generic: no config '{}' (a JSON file, or one of the built-in "
                                            "configs four_types, eleven_types)",
                                            spec));
  return generic::load_generic_config(spec);
}

std::vector<generic::GenericMode> modes_of(const std::string& s) {
  if (s == "both") return {generic::GenericMode::phases, generic::GenericMode::dependencies};
  if (auto one = generic::parse_generic_mode(s)) return {*one};
  throw std::invalid_argument("unknown mode '" + s + "' (phases, dependencies or both)");
}

struct Result {
  std::string mode;       // phases, dependencies; "-" for the graph baseline
  std::string scheduler;  // a scheduler, or "cuda-graph"
  double median_ms = 0, min_ms = 0, max_ms = 0;
  RunStats stats;
};

// Median, min and max of the timed runs into r.
void summarize(std::vector<double> times, Result& r) {
  std::sort(times.begin(), times.end());
  r.median_ms = times[times.size() / 2];
  r.min_ms = times.front();
  r.max_ms = times.back();
}

void run_generic_command(const GenericArgs& args) {
  if (const auto reason = no_device_reason()) throw std::runtime_error("no GPU available (" + *reason + ")");
  const generic::GenericConfig config = load_config(args.config);
  const generic::ExecutionTree tree = generic::expand(config);
  const auto modes = modes_of(args.mode);
  const auto schedulers = schedulers_of(args.scheduler);
  if (!args.json) {
    fmt::print("device   {}\n", describe(query_device()));
    fmt::print("program  {}\n", generic::describe(tree));
  }
  std::vector<Result> results;
  for (const auto mode : modes)
    for (const auto scheduler : schedulers) {
      RunOptions opt;
      Result r;
      r.mode = to_string(mode);
      r.scheduler = to_string(scheduler);
      std::vector<double> times;
      for (int rep = 0; rep <= args.reps; ++rep) {  // rep 0 warms up
        opt.trace = !args.trace.empty() && rep == args.reps;
        generic::GenericRun run = generic::run_generic(tree, mode, scheduler, opt);
        if (const std::string problem = generic::verify(tree, run); !problem.empty())
          throw std::runtime_error(fmt::format("generic: {} / {}: {}", to_string(mode), to_string(scheduler), problem));
        if (rep > 0) times.push_back(run.stats.milliseconds);
        r.stats = run.stats;
        if (opt.trace) {
          const std::string path = fmt::format("{}-{}-{}.json", args.trace, to_string(mode), to_string(scheduler));
          write_chrome_trace(path, run.trace, run.queue_names, std::string(to_string(scheduler)));
          if (!args.json) fmt::print("trace    {}\n", path);
        }
      }
      summarize(times, r);
      results.push_back(r);
    }
  // The baseline: the same tree as one CUDA graph (built once, replayed; the first
  // replay warms up), checked like every scheduler's run.
  double graph_build_ms = 0;
  if (!args.no_graph) {
    generic::GenericGraph graph(tree);
    graph_build_ms = graph.build_milliseconds();
    Result r;
    r.mode = "-";
    r.scheduler = "cuda-graph";
    std::vector<double> times;
    for (int rep = 0; rep <= args.reps; ++rep) {
      const generic::GenericRun run = graph.replay();
      if (const std::string problem = generic::verify(tree, run); !problem.empty())
        throw std::runtime_error(fmt::format("generic: CUDA graph baseline: {}", problem));
      if (rep > 0) times.push_back(run.stats.milliseconds);
      r.stats = run.stats;
    }
    summarize(times, r);
    results.push_back(r);
  }
  const double fastest =
      std::min_element(results.begin(), results.end(), [](auto& a, auto& b) { return a.median_ms < b.median_ms; })
          ->median_ms;
  if (args.json) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& r : results)
      out.push_back({{"mode", r.mode},
                     {"scheduler", r.scheduler},
                     {"median_ms", r.median_ms},
                     {"min_ms", r.min_ms},
                     {"max_ms", r.max_ms},
                     {"ratio_to_fastest", r.median_ms / fastest},
                     {"stats", to_json(r.stats)}});
    nlohmann::json doc{{"config", args.config}, {"instances", tree.size()}, {"runs", out}};
    if (!args.no_graph) doc["cuda_graph_build_ms"] = graph_build_ms;
    fmt::print("{}\n", doc.dump(2));
    return;
  }
  fmt::print("\n{:<14} {:<12} {:>10} {:>17} {:>9} {:>8} {:>9}\n", "mode", "scheduler", "median ms", "min..max ms",
             "tasks", "switches", "vs best");
  for (const auto& r : results)
    fmt::print("{:<14} {:<12} {:>10.3f} {:>8.3f}..{:<8.3f} {:>9} {:>8} {:>8.2f}x\n", r.mode, r.scheduler,
               r.median_ms, r.min_ms, r.max_ms, r.scheduler == "cuda-graph" ? r.stats.launches : r.stats.total_tasks(),
               r.stats.phase_switches, r.median_ms / fastest);
  fmt::print("all runs verified: every task ran once, after all its parents (median of {} runs)\n", args.reps);
  if (!args.no_graph)
    fmt::print("cuda-graph: one kernel node per instance, edges from its parents; building and instantiating it "
               "took {:.1f} ms (not in its time)\n", graph_build_ms);
}

}  // namespace

void add_generic_command(CLI::App& app) {
  auto args = std::make_shared<GenericArgs>();
  CLI::App* cmd = app.add_subcommand(
      "generic", "Run the generic test program (an execution tree of task types from JSON) with phases and/or "
                 "individual dependencies");
  cmd->add_option("config", args->config, "JSON config file, or a built-in: four_types, eleven_types")
      ->capture_default_str();
  cmd->add_option("--mode", args->mode, "phases, dependencies or both")->capture_default_str();
  cmd->add_option("--scheduler", args->scheduler, "megakernel, timesliced, controller or all")->capture_default_str();
  cmd->add_option("--trace", args->trace, "write a Chrome trace per run to PREFIX-<mode>-<scheduler>.json");
  cmd->add_option("--reps", args->reps, "timed runs (the median is reported)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_flag("--json", args->json, "print the results as JSON");
  cmd->add_flag("--no-graph", args->no_graph, "skip the CUDA graph baseline (the tree as one graph)");
  cmd->callback([args] { run_generic_command(*args); });
}

void run_generic_demo() {
  GenericArgs args;
  args.reps = 3;
  run_generic_command(args);
}

}  // namespace apiary::cli
