// The device side of the generic test program: one task type per worker size (and,
// in phases mode, per depth), the two programs, and run_generic.
#include "tasks/generic/generic.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include "schedulers/run.cuh"
#include "tasks/generic/device_tree.cuh"

namespace apiary::generic {

namespace {

// The Depth of a task type in dependencies mode, where depth plays no part.
constexpr int kAnyDepth = -1;

template <class F>
__device__ void with_worker_size(int size_class, F&& f) {
  switch (size_class) {
    case 0: f.template operator()<kWorkerSizes[0]>(); break;
    case 1: f.template operator()<kWorkerSizes[1]>(); break;
    case 2: f.template operator()<kWorkerSizes[2]>(); break;
    default: f.template operator()<kWorkerSizes[3]>(); break;
  }
}

// One instance of the tree. In phases mode (Depth >= 0) the creator enqueues each
// child into the next phase, which starts only after every task of this depth, so
// also every other parent of a join child, has finished. In dependencies mode every
// child waits for its own parents: the creator announces it behind the child's
// dependency and every parent resolves that dependency once.
template <int Depth, int Threads>
struct GenericTask {
  using Item = std::uint32_t;  // instance index
  static constexpr int threads = Threads;
  static constexpr int shared_bytes = 0;
  // Queue names in statistics and traces: "d2_w128" (depth 2, 128 threads), "w128".
  static constexpr auto name_storage = [] {
    std::array<char, 16> s{};
    std::size_t n = 0;
    auto put = [&](int v) {
      char digits[8];
      int k = 0;
      do {
        digits[k++] = static_cast<char>('0' + v % 10);
        v /= 10;
      } while (v > 0);
      while (k > 0) s[n++] = digits[--k];
    };
    if (Depth != kAnyDepth) {
      s[n++] = 'd';
      put(Depth);
      s[n++] = '_';
    }
    s[n++] = 'w';
    put(Threads);
    return s;
  }();
  static constexpr const char* name = name_storage.data();

  // The body stays out of line: inlined, the 32 bodies of the phases program push the
  // megakernel to its 128-register limit with spills (2 blocks per SM) while the
  // dependencies program needs far fewer; out of line both kernels use about 52
  // registers, so the two modes are compared at the same occupancy.
  template <class Ctx>
  __device__ static void execute(const Item& self, Ctx& ctx) {
    body(self, ctx);
  }

  template <class Ctx>
  __device__ __noinline__ static void body(std::uint32_t self, Ctx& ctx) {
    const GenericEnv& env = ctx.env();
    const DeviceInstance me = run_instance<Threads>(env, self, ctx.rank(), [&] { ctx.sync(); });
    if (ctx.rank() != 0) return;
    // The last phase has no children (the host refuses deeper trees before the run).
    if constexpr (Depth == kAnyDepth || Depth + 1 < kMaxPhases) {
      for (std::uint32_t k = me.child_begin; k < me.child_end; ++k) {
        const std::uint32_t c = env.children[k];
        const DeviceInstance child = env.instances[c];
        if constexpr (Depth == kAnyDepth) {
          if (child.creator == self)
            with_worker_size(child.size_class, [&]<int T>() {
              ctx.template enqueue_after<GenericTask<kAnyDepth, T>>(env.deps[c], static_cast<int>(child.parent_count),
                                                                    c);
            });
          ctx.resolve(env.deps[c]);
        } else {
          // Every child is exactly one level below its creator (expand.cpp; the host
          // checks it before the run), so it belongs to the next phase.
          if (child.creator == self)
            with_worker_size(child.size_class, [&]<int T>() { ctx.template enqueue<GenericTask<Depth + 1, T>>(c); });
        }
      }
    }
  }
};

template <int Depth>
using DepthPhase = Phase<GenericTask<Depth, kWorkerSizes[0]>, GenericTask<Depth, kWorkerSizes[1]>,
                         GenericTask<Depth, kWorkerSizes[2]>, GenericTask<Depth, kWorkerSizes[3]>>;

template <int... D>
Program<DepthPhase<D>...> make_phases_program(std::integer_sequence<int, D...>);

using PhasesProgram = decltype(make_phases_program(std::make_integer_sequence<int, kMaxPhases>{}));
using DependenciesProgram =
    Program<Phaseless<GenericTask<kAnyDepth, kWorkerSizes[0]>, GenericTask<kAnyDepth, kWorkerSizes[1]>,
                      GenericTask<kAnyDepth, kWorkerSizes[2]>, GenericTask<kAnyDepth, kWorkerSizes[3]>>>;

template <class T>
struct TaskParams;
template <int Depth, int Threads>
struct TaskParams<GenericTask<Depth, Threads>> {
  static constexpr int depth = Depth;
  static constexpr int size_class = worker_size_class(Threads);
};

// The queue an instance runs from: its worker size, and in phases mode its depth.
template <class P>
std::size_t queue_of_instance(const DeviceInstance& inst) {
  std::size_t q = P::type_count;
  for_each_queue<P>([&]<std::size_t Q>() {
    using Params = TaskParams<typename P::template type_at<Q>>;
    bool match = Params::size_class == inst.size_class;
    if constexpr (Params::depth != kAnyDepth) match = match && Params::depth == inst.depth;
    if (match) q = Q;
  });
  return q;
}

void check_runnable(const ExecutionTree& tree, GenericMode mode) {
  if (tree.size() == 0) throw std::invalid_argument("generic: the execution tree is empty");
  if (tree.types.size() > static_cast<std::size_t>(kMaxTypes))
    throw std::invalid_argument(cat("generic: ", tree.types.size(), " task types, the limit is ", kMaxTypes));
  for (const TaskTypeSpec& t : tree.types)
    if (worker_size_class(t.threads) < 0)
      throw std::invalid_argument(cat("generic: type ", t.name, " has ", t.threads,
                                      " threads; the precompiled worker sizes are 32, 64, 128 and 256"));
  if (mode == GenericMode::phases && tree.max_depth() >= static_cast<std::uint32_t>(kMaxPhases))
    throw std::invalid_argument(cat("generic: the tree of '", tree.name, "' is ", tree.max_depth() + 1,
                                    " levels deep, but phases mode has ", kMaxPhases,
                                    " phases (one per depth); run it in dependencies mode"));
  for (std::size_t i = 0; i < tree.size(); ++i)
    if (tree.creator[i] != kNoCreator && tree.depth[i] != tree.depth[tree.creator[i]] + 1)
      throw std::invalid_argument(cat("generic: instance ", i, " is not one level below its creator"));
}

template <class P>
GenericRun run_program(const ExecutionTree& tree, GenericMode mode, Scheduler scheduler, const RunOptions& options) {
  const std::size_t n = tree.size();
  DeviceTree device(tree, mode == GenericMode::phases);
  const std::vector<DeviceInstance>& host = device.table();
  DeviceBuffer<Dependency> deps =
      mode == GenericMode::dependencies ? make_dependencies(n) : DeviceBuffer<Dependency>();
  APIARY_CUDA_CHECK(cudaDeviceSynchronize());

  // Every instance passes through its queue once, so the tree gives exact queue
  // capacities (set below). In dependencies mode every non-root instance passes
  // through waiting storage once; twice that many slots keep the storage at most half
  // full, so its linear probing stays short.
  RunOptions opt = options;
  opt.queue_capacity = 1;
  opt.cyclic = false;
  const auto roots_total = static_cast<std::size_t>(std::count(tree.creator.begin(), tree.creator.end(), kNoCreator));
  opt.waiting_capacity =
      mode == GenericMode::dependencies ? static_cast<std::uint32_t>(std::max<std::size_t>(2 * (n - roots_total), 1)) : 1;
  if (opt.trace) opt.trace_capacity = static_cast<std::uint32_t>(n);

  Runtime<P, GenericEnv> rt(opt, device.env(deps.data()));

  std::array<std::size_t, P::type_count> per_queue{};
  std::array<std::vector<std::uint32_t>, P::type_count> roots;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t q = queue_of_instance<P>(host[i]);
    ++per_queue[q];
    if (tree.creator[i] == kNoCreator) roots[q].push_back(static_cast<std::uint32_t>(i));
  }
  for_each_queue<P>([&]<std::size_t Q>() {
    using T = typename P::template type_at<Q>;
    rt.template set_queue_capacity<T>(static_cast<std::uint32_t>(std::max<std::size_t>(per_queue[Q], 1)));
    if (!roots[Q].empty()) rt.template seed<T>(std::span<const std::uint32_t>(roots[Q]));
  });

  GenericRun run;
  run.mode = mode;
  run.stats = rt.run(scheduler);
  device.collect(run);
  if (opt.trace) {
    run.trace = rt.trace();
    const auto names = P::type_names();
    run.queue_names.assign(names.begin(), names.end());
  }
  return run;
}

}  // namespace

GenericRun run_generic(const ExecutionTree& tree, GenericMode mode, Scheduler scheduler, const RunOptions& options) {
  check_runnable(tree, mode);
  if (mode == GenericMode::phases) return run_program<PhasesProgram>(tree, mode, scheduler, options);
  return run_program<DependenciesProgram>(tree, mode, scheduler, options);
}

}  // namespace apiary::generic
