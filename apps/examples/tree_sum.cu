// example_tree_sum: sums an array with a reduction tree of tasks. Leaf tasks sum
// chunks of the array; each Combine task adds up to 32 sums of the level below and
// may only run once all of them exist, so it waits behind a Dependency that its
// children resolve. The root Combine writes the result. docs/writing-tasks.md walks
// through this file.
//
//   example_tree_sum [length] [scheduler ...] [--trace file.json]
//
// Exit status: 0 right sum, 1 wrong sum or failed run, 2 bad arguments, 77 no GPU
// (ctest then reports the test as skipped).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <numeric>
#include <span>
#include <string>
#include <vector>

#include "runtime/device.hpp"
#include "schedulers/run.cuh"  // Runtime::run; includes the whole runtime

namespace {

constexpr std::uint32_t kChunk = 1024;  // elements per Leaf: 8 per thread
constexpr std::uint32_t kFanIn = 32;    // children per Combine: one per lane of a warp
constexpr int kMaxLevels = 8;           // 32^7 leaves: more than any array fits in memory

// Everything tasks need to find their data. A copy lives in the kernel's parameters,
// so it holds pointers and sizes only, never owning containers.
struct SumEnv {
  const std::uint32_t* input = nullptr;
  std::uint64_t length = 0;
  std::uint64_t* partial = nullptr;   // one sum per tree node, level by level
  apiary::Dependency* deps = nullptr;  // one per tree node; only Combine nodes use theirs
  std::uint64_t* result = nullptr;
  int levels = 0;
  std::uint32_t count[kMaxLevels] = {};   // nodes per level
  std::uint32_t offset[kMaxLevels] = {};  // index of a level's first node in partial/deps

  __host__ __device__ std::uint32_t node(int level, std::uint32_t i) const { return offset[level] + i; }
  __host__ __device__ std::uint32_t children(int level, std::uint32_t i) const {
    return std::min(std::uint32_t{kFanIn}, count[level - 1] - i * kFanIn);
  }
};

__device__ std::uint64_t warp_sum(std::uint64_t v) {
  // The full mask is right only because both task types below occupy whole warps;
  // a task of fewer than 32 threads shares its warp with other tasks.
  for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
  return v;
}

// Called by one thread per node once its sum is known: store it and tell the parent.
template <class Ctx>
__device__ void finish_node(Ctx& ctx, int level, std::uint32_t i, std::uint64_t sum) {
  const SumEnv& e = ctx.env();
  e.partial[e.node(level, i)] = sum;
  // resolve() publishes this thread's writes to the parent, which therefore reads
  // `sum` without fences. Had other threads of the task written it: ctx.sync() first.
  if (level + 1 < e.levels) ctx.resolve(e.deps[e.node(level + 1, i / kFanIn)]);
  else *e.result = sum;
}

// Sums one chunk. 128 threads (4 warps): each warp reduces with shuffles, then the
// warps meet in the task's shared memory.
struct Leaf {
  using Item = std::uint32_t;  // chunk index
  static constexpr int threads = 128;
  static constexpr int shared_bytes = threads / 32 * static_cast<int>(sizeof(std::uint64_t));
  template <class Ctx>
  __device__ static void execute(const Item& chunk, Ctx& ctx) {
    const SumEnv& e = ctx.env();
    const std::uint64_t begin = std::uint64_t{chunk} * kChunk;
    const std::uint64_t end = std::min<std::uint64_t>(begin + kChunk, e.length);
    std::uint64_t v = 0;
    for (std::uint64_t k = begin + ctx.rank(); k < end; k += Ctx::size()) v += e.input[k];
    v = warp_sum(v);
    auto* per_warp = ctx.template shared_as<std::uint64_t>();
    if (ctx.rank() % 32 == 0) per_warp[ctx.rank() / 32] = v;
    // Waits for this task's 4 warps only; the block runs other tasks beside it.
    ctx.sync();
    if (ctx.rank() == 0) {
      std::uint64_t sum = 0;
      for (int w = 0; w < threads / 32; ++w) sum += per_warp[w];
      finish_node(ctx, 0, chunk, sum);
    }
  }
};

// Adds the sums of up to 32 children, one per lane. It runs only after every child
// resolved its dependency, so all the partial sums it reads are written.
struct Combine {
  struct Item { int level; std::uint32_t index; };
  static constexpr int threads = 32;
  static constexpr int shared_bytes = 0;
  template <class Ctx>
  __device__ static void execute(const Item& n, Ctx& ctx) {
    const SumEnv& e = ctx.env();
    const std::uint32_t lane = ctx.rank();
    const std::uint32_t first = n.index * kFanIn;
    std::uint64_t v = lane < e.children(n.level, n.index) ? e.partial[e.node(n.level - 1, first + lane)] : 0;
    v = warp_sum(v);
    if (lane == 0) finish_node(ctx, n.level, n.index, v);
  }
};

// Creates every Combine behind its dependency. Only a task can do that (seed() makes
// ready tasks), and Leaf tasks already run meanwhile: a child may resolve before its
// parent is announced, which the dependency protocol allows.
struct Plan {
  using Item = int;  // unused: there is a single Plan task
  static constexpr int threads = 32;
  static constexpr int shared_bytes = 0;
  template <class Ctx>
  __device__ static void execute(const Item&, Ctx& ctx) {
    const SumEnv& e = ctx.env();
    for (int level = 1; level < e.levels; ++level)
      for (std::uint32_t i = ctx.rank(); i < e.count[level]; i += Ctx::size())
        ctx.template enqueue_after<Combine>(e.deps[e.node(level, i)], static_cast<int>(e.children(level, i)),
                                            Combine::Item{level, i});
  }
};

// No ordering between the types beyond the dependencies, so no phases are needed.
using TreeSum = apiary::Program<apiary::Phaseless<Plan, Leaf, Combine>>;
static_assert(apiary::TaskType<Leaf> && apiary::TaskType<Combine>);

// Shapes the tree: level 0 holds the leaves, each further level a Combine per 32
// nodes below it, up to a single root (always a Combine, even above one leaf).
SumEnv shape_tree(std::uint64_t length) {
  SumEnv e;
  e.length = length;
  e.count[0] = static_cast<std::uint32_t>(std::max<std::uint64_t>(1, (length + kChunk - 1) / kChunk));
  e.levels = 1;
  while (e.levels == 1 || e.count[e.levels - 1] > 1) {
    e.offset[e.levels] = e.offset[e.levels - 1] + e.count[e.levels - 1];
    e.count[e.levels] = (e.count[e.levels - 1] + kFanIn - 1) / kFanIn;
    ++e.levels;
  }
  return e;
}

}  // namespace

int main(int argc, char** argv) {
  unsigned long long length = 1'000'000;
  std::vector<apiary::Scheduler> schedulers{apiary::Scheduler::megakernel};
  std::filesystem::path trace_path;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    const auto scheduler = apiary::parse_scheduler(arg);
    if (arg == "--trace" && a + 1 < argc) {
      trace_path = argv[++a];
    } else if (scheduler) {
      if (std::ranges::find(schedulers, *scheduler) == schedulers.end()) schedulers.push_back(*scheduler);
    } else if (!arg.empty() && arg.size() <= 12 && arg.find_first_not_of("0123456789") == std::string::npos) {
      length = std::stoull(arg);  // 12 digits at most keep the tree within kMaxLevels
    } else {
      std::fprintf(stderr, "example_tree_sum: unexpected argument '%s'\n"
                   "usage: example_tree_sum [length (up to 12 digits)] [scheduler ...] [--trace file.json]\n",
                   arg.c_str());
      return 2;
    }
  }
  if (const auto reason = apiary::no_device_reason()) {
    std::printf("example_tree_sum: skipped: %s\n", reason->c_str());
    return 77;
  }

  try {
    // Deterministic input; the host sum is the oracle. Integer addition wraps the
    // same way in any order, so the comparison is exact whatever the tree's shape.
    std::vector<std::uint32_t> host(length);
    unsigned long long expected = 0;
    for (std::uint64_t k = 0; k < length; ++k) {
      host[k] = static_cast<std::uint32_t>((k * 2654435761u) >> 7);
      expected += host[k];
    }

    SumEnv env = shape_tree(length);
    const std::uint32_t nodes = env.offset[env.levels - 1] + 1;
    const std::uint32_t leaves = env.count[0], combines = nodes - leaves;
    apiary::DeviceBuffer<std::uint32_t> input{std::span<const std::uint32_t>(host)};
    apiary::DeviceBuffer<std::uint64_t> partial(nodes), result(1);
    // Zeroed once: every use brings a counter back to 0, so later runs reuse them.
    apiary::DeviceBuffer<apiary::Dependency> deps = apiary::make_dependencies(nodes);
    env.input = input.data();
    env.partial = partial.data();
    env.deps = deps.data();
    env.result = result.data();

    // Capacities sized from the tree: the default of 2^20 per queue is wasteful for
    // a small input and too small for the leaves of a huge one.
    apiary::RunOptions options;
    options.queue_capacity = combines;    // Plan and Combine
    options.waiting_capacity = combines;  // at worst every Combine waits at once
    options.trace = !trace_path.empty();
    apiary::Runtime<TreeSum, SumEnv> rt(options, env);
    rt.set_queue_capacity<Leaf>(leaves);  // all leaves are seeded at once
    std::vector<Leaf::Item> chunks(leaves);
    std::iota(chunks.begin(), chunks.end(), 0u);

    int status = 0;
    for (const apiary::Scheduler scheduler : schedulers) {
      result.fill_zero();
      rt.seed<Leaf>(chunks);  // a run consumes its seeds: seed again before each one
      rt.seed<Plan>(0);
      const apiary::RunStats stats = rt.run(scheduler);
      std::printf("%s", apiary::format_stats(stats).c_str());
      const unsigned long long got = result.to_host()[0];
      std::printf("%s: sum of %llu elements = %llu (host: %llu) %s\n", apiary::to_string(scheduler).data(), length,
                  got, expected, got == expected ? "ok" : "MISMATCH");
      if (got != expected) status = 1;
      if (options.trace) {
        // One file per run: file.json for the first, file.<scheduler>.json for the others.
        std::filesystem::path path = trace_path;
        if (scheduler != schedulers.front())
          path.replace_extension(std::string(apiary::to_string(scheduler)) + ".json");
        rt.write_trace(path, scheduler);
        std::printf("trace of %zu tasks written to %s\n", rt.trace().size(), path.c_str());
      }
    }
    return status;
  } catch (const std::exception& e) {
    // RunError and its kinds (overflow, tasks left waiting, watchdog), CudaError, and
    // std::invalid_argument for a scheduler that is not implemented yet.
    std::fprintf(stderr, "example_tree_sum: %s\n", e.what());
    return 1;
  }
}
