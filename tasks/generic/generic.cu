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

namespace apiary::generic {

namespace {

// What a task needs to know about an instance, in one load per child.
struct DeviceInstance {
  std::uint32_t child_begin;
  std::uint32_t child_end;
  std::uint32_t creator;
  std::uint32_t parent_count;
  std::uint16_t type;
  std::uint8_t depth;
  std::uint8_t size_class;  // index into kWorkerSizes
};

struct GenericEnv {
  const DeviceInstance* instances = nullptr;
  const std::uint32_t* children = nullptr;
  const unsigned long long* type_fmas = nullptr;  // FMAs per instance of each type
  Dependency* deps = nullptr;                     // one per instance (dependencies mode)
  unsigned long long* ticket = nullptr;
  unsigned long long* start_ticket = nullptr;
  unsigned long long* end_ticket = nullptr;
  unsigned* executions = nullptr;
  float* sink = nullptr;
};

// The Depth of a task type in dependencies mode, where depth plays no part.
constexpr int kAnyDepth = -1;

__device__ inline unsigned long long take_ticket(const GenericEnv& env) {
  return atomic_ref<unsigned long long>(*env.ticket).fetch_add(1) + 1;
}

// `fmas` FMAs spread evenly over the task's threads, as four dependent chains per
// thread (enough independent work to keep the FMA pipe busy even when a task runs
// alone on an SM). The values stay near 1, so no denormals or infinities slow it down.
template <int Threads>
__device__ void synthetic_work(unsigned long long fmas, std::uint32_t instance, int rank, float* sink) {
  const unsigned long long mine = fmas / Threads + (static_cast<unsigned long long>(rank) < fmas % Threads ? 1 : 0);
  const float seed = 1.0f + static_cast<float>((instance * 31u + static_cast<unsigned>(rank)) & 1023u) * 1e-6f;
  float a = seed, b = seed + 0.25f, c = seed + 0.5f, d = seed + 0.75f;
  const float m = 0.999f, k = 0.001f;
  unsigned long long i = 0;
  for (; i + 4 <= mine; i += 4) {
    a = fmaf(a, m, k);
    b = fmaf(b, m, k);
    c = fmaf(c, m, k);
    d = fmaf(d, m, k);
  }
  for (; i < mine; ++i) a = fmaf(a, m, k);
  const float result = (a + b) + (c + d);
  // Never true (the chains stay positive), but the compiler cannot know, so every
  // thread's chains must be computed.
  if (result < 0.0f) sink[instance] = result;
}

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
    if (ctx.rank() == 0) {
      env.start_ticket[self] = take_ticket(env);
      atomicAdd(&env.executions[self], 1u);
    }
    const DeviceInstance me = env.instances[self];
    synthetic_work<Threads>(env.type_fmas[me.type], self, ctx.rank(), env.sink);
    ctx.sync();
    if (ctx.rank() != 0) return;
    env.end_ticket[self] = take_ticket(env);
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
  std::vector<DeviceInstance> host(n);
  for (std::size_t i = 0; i < n; ++i)
    host[i] = DeviceInstance{tree.child_offsets[i],
                             tree.child_offsets[i + 1],
                             tree.creator[i],
                             static_cast<std::uint32_t>(tree.parent_count(i)),
                             static_cast<std::uint16_t>(tree.type[i]),
                             static_cast<std::uint8_t>(mode == GenericMode::phases ? tree.depth[i] : 0),
                             static_cast<std::uint8_t>(worker_size_class(tree.types[tree.type[i]].threads))};
  std::vector<unsigned long long> fmas;
  for (const TaskTypeSpec& t : tree.types) fmas.push_back((t.flops + 1) / 2);

  DeviceBuffer<DeviceInstance> instances{std::span<const DeviceInstance>(host)};
  DeviceBuffer<std::uint32_t> children(std::max<std::size_t>(tree.children.size(), 1));
  children.copy_from(tree.children);
  DeviceBuffer<unsigned long long> type_fmas{std::span<const unsigned long long>(fmas)};
  DeviceBuffer<Dependency> deps =
      mode == GenericMode::dependencies ? make_dependencies(n) : DeviceBuffer<Dependency>();
  DeviceBuffer<unsigned long long> ticket(1), start(n), end(n);
  DeviceBuffer<unsigned> executions(n);
  DeviceBuffer<float> sink(n);
  for (auto* b : {&ticket, &start, &end}) b->fill_zero();
  executions.fill_zero();
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

  GenericEnv env{instances.data(), children.data(), type_fmas.data(), deps.data(), ticket.data(),
                 start.data(),     end.data(),      executions.data(), sink.data()};
  Runtime<P, GenericEnv> rt(opt, env);

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
  run.start_ticket.resize(n);
  run.end_ticket.resize(n);
  const auto s = start.to_host(), e = end.to_host();
  std::copy(s.begin(), s.end(), run.start_ticket.begin());
  std::copy(e.begin(), e.end(), run.end_ticket.begin());
  run.executions = executions.to_host();
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
