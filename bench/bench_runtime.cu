// Runtime micro-benchmarks under every scheduler of the build, each against a baseline
// measured in the same process:
//   * throughput of trivial tasks (worker size 1 and 32) vs the same work as one plain kernel;
//   * dependency hop latency along a chain of tasks vs one kernel launch per hop and
//     vs one CUDA graph with a node per hop;
//   * phase switch latency with one task per phase vs one kernel launch per phase;
//   * the fixed cost of a run (one trivial task, host wall time from seed to the return of
//     run) vs one empty kernel launch and a stream synchronisation;
//   * the generic 4- and 11-type programs (tasks/generic) in both modes vs the same tree
//     as one CUDA graph with a kernel node per task.
// Prints one table (each scheduler's ratio to the baseline and to the megakernel) and
// writes JSON (--json FILE). Every figure is the median of --reps runs after a warm-up,
// with their range (min..max).
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "runtime/device.hpp"
#include "schedulers/run.cuh"
#include "tasks/generic/builtin_configs.hpp"
#include "tasks/generic/generic.hpp"

namespace {

using namespace apiary;

// Median and range of the repetitions of one figure (in the unit it is reported in).
struct Spread {
  double median = 0, min = 0, max = 0;
};
Spread spread(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return {v[v.size() / 2], v.front(), v.back()};
}

double median(std::vector<double> v) { return spread(std::move(v)).median; }

double time_ms(const std::function<void(cudaStream_t)>& work, int reps) {
  std::vector<double> t;
  EventTimer timer;
  work(nullptr);  // warm-up
  APIARY_CUDA_CHECK(cudaDeviceSynchronize());
  for (int r = 0; r < reps; ++r) {
    timer.start();
    work(nullptr);
    timer.stop();
    t.push_back(timer.elapsed_ms());
  }
  return median(t);
}

struct Row {
  std::string name, unit;
  Scheduler scheduler = Scheduler::megakernel;
  Spread apiary;
  std::string baseline_name;
  double baseline = 0;
  bool higher_is_better = true;
  std::uint64_t rounds = 0, launches = 0;  // of the scheduler's last run
};

// ---- trivial tasks --------------------------------------------------------------
struct TrivialEnv {
  unsigned* sink = nullptr;
};
template <int W>
struct Trivial {
  using Item = unsigned;
  static constexpr int threads = W;
  static constexpr int shared_bytes = 0;
  template <class Ctx>
  __device__ static void execute(const Item& item, Ctx& ctx) {
    if (item == 0xffffffffu) ctx.env().sink[0] = ctx.rank();  // never true: keeps the item read
  }
};

template <int W>
__global__ void trivial_kernel(const unsigned* items, unsigned n, unsigned* sink) {
  const unsigned long long t = blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x;
  if (t / W < n && items[t / W] == 0xffffffffu) sink[0] = static_cast<unsigned>(t % W);
}

template <int W>
std::vector<Row> bench_trivial(unsigned n, int reps, const std::vector<Scheduler>& schedulers, const RunOptions& base) {
  std::vector<unsigned> items(n);
  for (unsigned i = 0; i < n; ++i) items[i] = i;
  DeviceBuffer<unsigned> sink(1);
  DeviceBuffer<unsigned> d_items{std::span<const unsigned>(items)};
  RunOptions opt = base;
  opt.queue_capacity = n;
  using P = Program<Phaseless<Trivial<W>>>;
  Runtime<P, TrivialEnv> rt(opt, TrivialEnv{sink.data()});
  const double base_ms = time_ms(
      [&](cudaStream_t st) {
        const unsigned long long threads = static_cast<unsigned long long>(n) * W;
        trivial_kernel<W><<<static_cast<unsigned>((threads + 255) / 256), 256, 0, st>>>(d_items.data(), n, sink.data());
      },
      reps);
  std::vector<Row> rows;
  for (const Scheduler scheduler : schedulers) {
    std::vector<double> rate;
    RunStats s;
    for (int r = 0; r <= reps; ++r) {
      rt.template seed<Trivial<W>>(items);
      s = rt.run(scheduler);
      if (s.total_tasks() != n) throw std::runtime_error("trivial tasks: wrong task count");
      if (r > 0) rate.push_back(n / (s.milliseconds * 1e-3));  // run 0 is the warm-up
    }
    rows.push_back({"trivial tasks, worker size " + std::to_string(W), "tasks/s", scheduler, spread(rate),
                    "one plain kernel", n / (base_ms * 1e-3), true, s.rounds, s.launches});
  }
  return rows;
}

// ---- dependency chain -----------------------------------------------------------
struct ChainEnv {
  Dependency* deps = nullptr;
  int n = 0;
  unsigned long long* stamps = nullptr;  // [0] start of the first hop, [1] end of the last
  unsigned* sink = nullptr;
};
struct Hop {
  using Item = int;
  static constexpr int threads = 1;
  static constexpr int shared_bytes = 0;
  template <class Ctx>
  __device__ static void execute(const Item& k, Ctx& ctx) {
    const ChainEnv& e = ctx.env();
    if (k == 0) e.stamps[0] = global_time_ns();
    if (k + 1 < e.n) {
      ctx.resolve(e.deps[k + 1]);
    } else {
      e.stamps[1] = global_time_ns();
    }
  }
};
// Phase 0 creates the whole chain behind dependencies; phase 1 runs it, so the hops
// measure dependency resolution alone.
struct MakeHops {
  using Item = int;
  static constexpr int threads = 256;
  static constexpr int shared_bytes = 0;
  template <class Ctx>
  __device__ static void execute(const Item&, Ctx& ctx) {
    const ChainEnv& e = ctx.env();
    for (int k = ctx.rank(); k < e.n; k += Ctx::size()) ctx.template enqueue_after<Hop>(e.deps[k], k == 0 ? 0 : 1, k);
  }
};

__global__ void hop_kernel(int k, unsigned* sink) {
  if (k < 0) sink[0] = 1;  // the same (no) work as a Hop
}

std::vector<Row> bench_chain(int n, int reps, const std::vector<Scheduler>& schedulers, const RunOptions& base) {
  auto deps = make_dependencies(n);
  DeviceBuffer<unsigned long long> stamps(2);
  DeviceBuffer<unsigned> sink(1);
  RunOptions opt = base;
  opt.waiting_capacity = 2 * n;
  using P = Program<Phase<MakeHops>, Phase<Hop>>;
  Runtime<P, ChainEnv> rt(opt, ChainEnv{deps.data(), n, stamps.data(), sink.data()});
  // Baseline 1: one launch per hop on a stream.
  const double launch_ms = time_ms(
      [&](cudaStream_t s) {
        for (int k = 0; k < n; ++k) hop_kernel<<<1, 1, 0, s>>>(k, sink.data());
      },
      reps);
  // Baseline 2: the same chain as one CUDA graph (captured once, replayed).
  cudaStream_t cap;
  APIARY_CUDA_CHECK(cudaStreamCreate(&cap));
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  APIARY_CUDA_CHECK(cudaStreamBeginCapture(cap, cudaStreamCaptureModeGlobal));
  for (int k = 0; k < n; ++k) hop_kernel<<<1, 1, 0, cap>>>(k, sink.data());
  APIARY_CUDA_CHECK(cudaStreamEndCapture(cap, &graph));
  APIARY_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  const double graph_ms = time_ms([&](cudaStream_t s) { APIARY_CUDA_CHECK(cudaGraphLaunch(exec, s)); }, reps);
  APIARY_CUDA_CHECK(cudaGraphExecDestroy(exec));
  APIARY_CUDA_CHECK(cudaGraphDestroy(graph));
  APIARY_CUDA_CHECK(cudaStreamDestroy(cap));
  const std::string name = "dependency hop (chain of " + std::to_string(n) + ")";
  std::vector<Row> rows;
  for (const Scheduler scheduler : schedulers) {
    std::vector<double> hop_us;
    RunStats s;
    for (int r = 0; r <= reps; ++r) {
      rt.seed<MakeHops>(0);
      s = rt.run(scheduler);
      const auto st = stamps.to_host();
      if (r > 0) hop_us.push_back((st[1] - st[0]) * 1e-3 / (n - 1));
    }
    const Spread apiary_us = spread(hop_us);
    rows.push_back({name, "us/hop", scheduler, apiary_us, "kernel launch per hop", launch_ms * 1e3 / n, false,
                    s.rounds, s.launches});
    rows.push_back({name, "us/hop", scheduler, apiary_us, "CUDA graph node", graph_ms * 1e3 / n, false, s.rounds,
                    s.launches});
  }
  return rows;
}

// ---- phase switches -------------------------------------------------------------
struct SwitchEnv {
  int switches = 0;
  unsigned long long* stamps = nullptr;
};
template <int Which>
struct Ping {
  using Item = int;  // switch number
  static constexpr int threads = 1;
  static constexpr int shared_bytes = 0;
  template <class Ctx>
  __device__ static void execute(const Item& k, Ctx& ctx) {
    if (k == 0) ctx.env().stamps[0] = global_time_ns();
    if (k + 1 < ctx.env().switches) {
      ctx.template enqueue<Ping<1 - Which>>(k + 1);
    } else {
      ctx.env().stamps[1] = global_time_ns();
    }
  }
};

std::vector<Row> bench_phase_switch(int switches, int reps, const std::vector<Scheduler>& schedulers,
                                    const RunOptions& base) {
  DeviceBuffer<unsigned long long> stamps(2);
  DeviceBuffer<unsigned> sink(1);
  RunOptions opt = base;
  opt.cyclic = true;
  using P = Program<Phase<Ping<0>>, Phase<Ping<1>>>;
  Runtime<P, SwitchEnv> rt(opt, SwitchEnv{switches, stamps.data()});
  const double launch_ms = time_ms(
      [&](cudaStream_t s) {
        for (int k = 0; k < switches; ++k) hop_kernel<<<1, 1, 0, s>>>(k, sink.data());
      },
      reps);
  std::vector<Row> rows;
  for (const Scheduler scheduler : schedulers) {
    std::vector<double> us;
    RunStats s;
    for (int r = 0; r <= reps; ++r) {
      rt.seed<Ping<0>>(0);
      s = rt.run(scheduler);
      if (s.phase_switches != static_cast<std::uint64_t>(switches - 1)) throw std::runtime_error("phase switch count");
      const auto st = stamps.to_host();
      if (r > 0) us.push_back((st[1] - st[0]) * 1e-3 / (switches - 1));
    }
    rows.push_back({"phase switch (one task per phase)", "us/switch", scheduler, spread(us), "kernel launch per phase",
                    launch_ms * 1e3 / switches, false, s.rounds, s.launches});
  }
  return rows;
}

// ---- a run's fixed cost -------------------------------------------------------------
// What an application that runs small programs many times pays per run (a triangular
// solve, a search of RCM): preparation, launch, the wait and the counters coming back.
// Host wall time from seed to the return of run() for one trivial task, the median of
// `runs` runs per repetition, against one empty kernel launch and a stream
// synchronisation timed the same way; and the part of it that the scheduler's own
// kernels take (RunStats::milliseconds, events around them). The megakernel once more
// without event records (RunOptions::event_timer off; its kernel's time by the device
// clock), as the triangular solve runs it. A queue of 1024 items: a
// run resets every slot's sequence number, which for the default 2^20 would add 8 MB
// of writes to what is meant to be the fixed cost.
std::vector<Row> bench_run_cost(int runs, int reps, const std::vector<Scheduler>& schedulers, const RunOptions& base) {
  using Clock = std::chrono::steady_clock;
  DeviceBuffer<unsigned> sink(1);
  RunOptions opt = base;
  opt.queue_capacity = 1024;
  using RunCostProgram = Program<Phaseless<Trivial<32>>>;
  Runtime<RunCostProgram, TrivialEnv> rt(opt, TrivialEnv{sink.data()});
  RunOptions no_events = opt;
  no_events.event_timer = false;
  Runtime<RunCostProgram, TrivialEnv> rt_no_events(no_events, TrivialEnv{sink.data()});
  auto per_call_us = [&](const std::function<void()>& call) {
    call();  // warm-up
    std::vector<double> us;
    for (int k = 0; k < runs; ++k) {
      const auto t0 = Clock::now();
      call();
      us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
    }
    return median(us);
  };
  std::vector<double> launch_us;
  for (int r = 0; r < reps; ++r)
    launch_us.push_back(per_call_us([&] {
      hop_kernel<<<1, 1>>>(0, sink.data());
      APIARY_CUDA_CHECK(cudaStreamSynchronize(nullptr));
    }));
  std::vector<Row> rows;
  auto measure = [&](auto& runtime, Scheduler scheduler, const std::string& what) {
    std::vector<double> us, kernel_us;
    RunStats s;
    for (int r = 0; r < reps; ++r) {
      std::vector<double> kernel;
      us.push_back(per_call_us([&] {
        runtime.template seed<Trivial<32>>(1u);
        s = runtime.run(scheduler);
        if (s.total_tasks() != 1) throw std::runtime_error("run cost: wrong task count");
        kernel.push_back(s.milliseconds * 1e3);
      }));
      kernel_us.push_back(median(kernel));
    }
    rows.push_back({"run of one task" + what + " (host wall time)", "us/run", scheduler, spread(us),
                    "kernel launch + stream sync", median(launch_us), false, s.rounds, s.launches});
    rows.push_back({"run of one task" + what + " (its kernels' time)", "us/run", scheduler, spread(kernel_us),
                    "kernel launch + stream sync", median(launch_us), false, s.rounds, s.launches});
  };
  for (const Scheduler scheduler : schedulers) {
    measure(rt, scheduler, "");
    if (scheduler == Scheduler::megakernel) measure(rt_no_events, scheduler, ", no events");
  }
  return rows;
}

// ---- generic programs -------------------------------------------------------------
// Milliseconds per run of a built-in tree, each mode under each scheduler, against the
// tree as one CUDA graph. Every run is verified (each task once, after its parents).
std::vector<Row> bench_generic(const std::string& config, int reps, const std::vector<Scheduler>& schedulers,
                               const RunOptions& base) {
  std::string json;
  for (const auto& b : generic::kBuiltinConfigs)
    if (b.name == config) json = b.json;
  const generic::ExecutionTree tree = generic::expand(generic::parse_generic_config(json, config));
  auto check = [&](const generic::GenericRun& run, const std::string& what) {
    if (const std::string problem = generic::verify(tree, run); !problem.empty())
      throw std::runtime_error("generic " + config + ", " + what + ": " + problem);
  };
  generic::GenericGraph graph(tree);
  std::vector<double> graph_ms;
  for (int r = 0; r <= reps; ++r) {
    const generic::GenericRun run = graph.replay();
    check(run, "CUDA graph");
    if (r > 0) graph_ms.push_back(run.stats.milliseconds);
  }
  const double baseline = median(graph_ms);
  std::vector<Row> rows;
  for (const generic::GenericMode mode : {generic::GenericMode::phases, generic::GenericMode::dependencies})
    for (const Scheduler scheduler : schedulers) {
      std::vector<double> ms;
      RunStats s;
      for (int r = 0; r <= reps; ++r) {
        const generic::GenericRun run = generic::run_generic(tree, mode, scheduler, base);
        check(run, std::string(to_string(mode)) + " / " + std::string(to_string(scheduler)));
        s = run.stats;
        if (r > 0) ms.push_back(s.milliseconds);
      }
      rows.push_back({"generic " + config + ", " + std::string(to_string(mode)), "ms", scheduler, spread(ms),
                      "CUDA graph (node per task)", baseline, false, s.rounds, s.launches});
    }
  return rows;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Apiary runtime micro-benchmarks under every scheduler of the build"};
  int reps = 5;
  unsigned tasks = 1u << 24;
  int chain = 10000;
  std::string json_path;
  std::vector<std::string> scheduler_names;
  RunOptions base;
  app.add_option("--reps", reps, "timed repetitions (median reported)")->check(CLI::PositiveNumber);
  app.add_option("--tasks", tasks, "trivial tasks per run")->check(CLI::PositiveNumber);
  app.add_option("--chain", chain, "length of the dependency chain and number of phase switches")
      ->check(CLI::Range(2, 1 << 24));
  app.add_option("--scheduler", scheduler_names, "schedulers to run (default: every one this build has)");
  app.add_option("--drain-us", base.drain_microseconds,
                 "timesliced, controller: RunOptions::drain_microseconds (how long a worker block keeps claiming)")
      ->capture_default_str();
  app.add_option("--blocks-per-sm", base.blocks_per_sm,
                 "megakernel: RunOptions::blocks_per_sm (at most this many resident blocks per SM; 0: as many as fit)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--json", json_path, "write the results as JSON");
  CLI11_PARSE(app, argc, argv);
  try {
    if (auto reason = no_device_reason()) {
      std::fprintf(stderr, "bench_runtime: no GPU available (%s)\n", reason->c_str());
      return 1;
    }
    std::vector<Scheduler> schedulers;
    for (const std::string& name : scheduler_names) {
      const std::optional<Scheduler> s = parse_scheduler(name);
      if (!s) throw std::invalid_argument("unknown scheduler '" + name + "'");
      schedulers.push_back(*s);
    }
    if (schedulers.empty()) schedulers = available_schedulers();
    const DeviceInfo dev = query_device();
    std::printf("device: %s\n", describe(dev).c_str());
    std::vector<Row> rows;
    auto add = [&](std::vector<Row> more) { rows.insert(rows.end(), more.begin(), more.end()); };
    add(bench_trivial<1>(tasks, reps, schedulers, base));
    add(bench_trivial<32>(tasks / 8, reps, schedulers, base));
    add(bench_chain(chain, reps, schedulers, base));
    add(bench_phase_switch(chain, reps, schedulers, base));
    add(bench_run_cost(200, reps, schedulers, base));
    add(bench_generic("four_types", reps, schedulers, base));
    add(bench_generic("eleven_types", reps, schedulers, base));

    // The megakernel's figure for the same benchmark and baseline, when it ran.
    auto megakernel_value = [&](const Row& row) -> std::optional<double> {
      for (const Row& r : rows)
        if (r.scheduler == Scheduler::megakernel && r.name == row.name && r.baseline_name == row.baseline_name)
          return r.apiary.median;
      return std::nullopt;
    };
    std::printf("\n%-38s %-11s %12s %-10s %-21s %-26s %12s %9s %9s %8s %9s\n", "benchmark", "scheduler", "apiary",
                "unit", "min..max", "baseline", "baseline", "ratio", "vs mega", "rounds", "launches");
    nlohmann::json out = nlohmann::json::array();
    for (const Row& r : rows) {
      // ratios > 1: this scheduler is better (than the baseline, than the megakernel)
      const double value = r.apiary.median;
      const double ratio = r.higher_is_better ? value / r.baseline : r.baseline / value;
      const std::optional<double> mega = megakernel_value(r);
      const double vs_mega = !mega ? 0 : (r.higher_is_better ? value / *mega : *mega / value);
      char range[64];
      std::snprintf(range, sizeof range, "%.4g..%.4g", r.apiary.min, r.apiary.max);
      std::printf("%-38s %-11s %12.4g %-10s %-21s %-26s %12.4g %8.2fx", r.name.c_str(), to_string(r.scheduler).data(),
                  value, r.unit.c_str(), range, r.baseline_name.c_str(), r.baseline, ratio);
      if (mega) {
        std::printf(" %8.2fx", vs_mega);
      } else {
        std::printf(" %9s", "-");
      }
      std::printf(" %8llu %9llu\n", static_cast<unsigned long long>(r.rounds),
                  static_cast<unsigned long long>(r.launches));
      nlohmann::json entry = {{"benchmark", r.name},
                              {"scheduler", std::string(to_string(r.scheduler))},
                              {"unit", r.unit},
                              {"apiary", value},
                              {"apiary_min", r.apiary.min},
                              {"apiary_max", r.apiary.max},
                              {"baseline", r.baseline_name},
                              {"baseline_value", r.baseline},
                              {"ratio_apiary_better", ratio},
                              {"rounds", r.rounds},
                              {"launches", r.launches}};
      if (mega) entry["ratio_vs_megakernel"] = vs_mega;
      out.push_back(entry);
    }
    std::printf("(ratio, vs mega > 1: this scheduler better than the baseline, than the megakernel; rounds and "
                "launches of its last run)\n");
    if (!json_path.empty()) {
      nlohmann::json doc = {{"device", dev.name},
                            {"reps", reps},
                            {"drain_microseconds", base.drain_microseconds},
                            {"results", out}};
      std::ofstream(json_path) << doc.dump(2) << "\n";
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_runtime: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
