// The task programs: one row task per chunk and iteration (JacobiRows), and in the
// stages variants one check task per iteration (Check), in the checkpoints variant one
// per window of iterations (Checkpoint). The four programs differ only in how iteration
// k+1 is ordered after iteration k:
//
//   stages-phases  Program<Phase<Rows>, Phase<Check>>, cyclic. The check of iteration k
//                  (phase 1) enqueues the row tasks of k+1 (phase 0, after the wrap);
//                  the row task of chunk 0 enqueues its iteration's check.
//   stages-deps    Program<Phaseless<Rows, Check>>. Check k waits behind one dependency
//                  for the chunk_count row tasks of iteration k. Each row task creates
//                  its successor (same chunk, k+1) behind the chunk's dependency with one
//                  predecessor: the check of iteration k, which resolves all of them.
//   autonomous     Program<Phaseless<Rows>>. No check task: a per-iteration arrival
//                  counter finds the last row task of iteration k, which enqueues the
//                  row tasks of k+1 at once (speculatively), then sums the change and
//                  decides. Deciders are serialised by counting the decider of k as one
//                  more arrival of iteration k+1, so at most one iteration runs ahead of
//                  the decision, and it writes neither the answer's buffer nor
//                  anything the pending decision reads.
//   checkpoints    Program<Phaseless<Rows, Checkpoint>>. Inside a window of
//                  `interval` iterations a row task of k+1 waits (behind its chunk's
//                  dependency of parity k+1) only for the units adjacent to its own
//                  (problem.hpp: ChunkGraph); the task that completes a unit's rows in
//                  iteration k resolves the dependencies of all their chunks. The last
//                  iteration of a window creates no successors: its row tasks resolve the
//                  checkpoint's dependency instead. The checkpoint sums the changes of
//                  the window's iterations in order, stops at the first below the
//                  tolerance (its iterate is still in the ring of max(2, interval) versions)
//                  or at the limit, and otherwise starts the next window.
#include <cuda_runtime.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <stdexcept>
#include <type_traits>

#include "schedulers/run.cuh"
#include "tasks/jacobi/workspace.hpp"

namespace apiary::jacobi::detail {

namespace {

struct TaskEnv {
  DeviceData d;
  Dependency* row_deps = nullptr;   // stages-deps: chunk t's next row task waits at [t];
                                    // checkpoints: at [(k & 1) * chunks + t] for iteration k
  Dependency* check_dep = nullptr;  // stages-deps, checkpoints: the check task waits here
  unsigned* arrivals = nullptr;     // autonomous: per iteration
  // autonomous: at [k & 1], the queue positions reserved for iteration k's row tasks, as
  // ReservedRecord (0 before the first).
  unsigned long long* reserved = nullptr;
  // checkpoints (problem.hpp: ChunkGraph)
  const std::int32_t* unit = nullptr;
  const std::int32_t* wait_count = nullptr;
  const std::int32_t* consumer_ptr = nullptr;
  const std::int32_t* consumers = nullptr;
  int interval = 1;
};

// The work item of a row task: the chunk's index and the iteration (RowRef), and in the
// autonomous variant also the chunk's bounds (RowTask). There the decider has them in
// shared memory before it arrives (JacobiRows), so its tasks start with the loads of
// their entries instead of their chunk's. The other variants load their chunk: with the
// bounds in the item, the stages-phases check would load them for its fan-out (no round
// trip saved), and the stages-deps and checkpoints tasks, whose items wait in the waiting
// storage, took up to 19% longer (H200, session 19).
struct RowRef {
  std::int32_t index;  // the chunk's
  std::int32_t iteration;
};
// 32 bytes: a piece's count is not in it (update_chunk reads it from the table).
struct alignas(16) RowTask {
  std::int32_t row_begin, row_end, nz_begin, nz_end, first_piece, lanes;  // the chunk's
  std::int32_t index;                                                      // the chunk's
  std::int32_t iteration;

  __host__ __device__ static RowTask of(const Chunk& c, int t, int k) {
    return RowTask{c.row_begin, c.row_end, c.nz_begin, c.nz_end, c.first_piece, c.lanes, t, k};
  }
  __device__ Chunk chunk() const {
    Chunk c;
    c.row_begin = row_begin;
    c.row_end = row_end;
    c.nz_begin = nz_begin;
    c.nz_end = nz_end;
    c.first_piece = first_piece;
    c.lanes = lanes;
    return c;
  }
};
template <Variant V>
using RowItem = std::conditional_t<V == Variant::autonomous, RowTask, RowRef>;

// The autonomous variant's reserved fan-out (TaskContext::reserve): the decider of
// iteration k, while it releases the row tasks of k + 1, reserves the queue positions of
// those of k + 2, which the decider of k + 1 then fills with writes only. The record
// names the iteration, so that a row task can read it before it knows whether it
// arrives last, and see whether it was written yet.
struct ReservedRecord {
  static constexpr int kPositionBits = 40;
  static constexpr int kMaxIteration = (1 << 24) - 1;
  __device__ static unsigned long long of(int iteration, unsigned long long first) {
    return static_cast<unsigned long long>(iteration) << kPositionBits | first;
  }
  __device__ static bool names(unsigned long long record, int iteration) {
    return record >> kPositionBits == static_cast<unsigned long long>(iteration);
  }
  __device__ static unsigned long long first(unsigned long long record) {
    return record & ((1ull << kPositionBits) - 1);
  }
};

template <Variant V>
struct Check;
template <Variant V>
struct JacobiRows;

// One warp: reserves the queue positions of iteration k's row tasks and records them.
// Ordered before their filler by the reserving decider's arrival (acq_rel) for k - 1.
template <class Ctx>
__device__ void reserve_for(const Ctx& ctx, const TaskEnv& e, int k) {
  const QueueReservation r = ctx.template reserve<JacobiRows<Variant::autonomous>>(e.d.chunk_count);
  if ((ctx.rank() & 31) == 0 && r.count != 0 && r.first < (1ull << ReservedRecord::kPositionBits))
    atomic_ref<unsigned long long>(e.reserved[k & 1]).store(ReservedRecord::of(k, r.first), cuda::std::memory_order_relaxed);
}

struct Checkpoint;

// How the row tasks update a chunk of whole rows (device.cuh: RowUpdate).
inline constexpr RowUpdate kRows = RowUpdate::staged;

template <Variant V>
struct JacobiRows {
  using Item = RowItem<V>;
  // A RowTask by value took the autonomous megakernel from 80 to 90 registers, a RowRef
  // by reference the stages-phases one from 92 to 94.
  using ItemArg = std::conditional_t<sizeof(Item) <= 8, Item, const Item&>;
  static constexpr int threads = kTaskThreads;
  static constexpr int shared_bytes = sizeof(StagedScratch);
  static constexpr const char* name = "JacobiRows";
  // stages-phases and checkpoints: 3 blocks of 256 threads per SM (80 registers a
  // thread), where their megakernels took 92 and 82 (2 blocks) on their own. Measured
  // (H200, session 38): stages-phases 271.4 -> 192.0 us per iteration on poisson3d:150,
  // checkpoints 222 -> 178 us there and 127 -> 102 us at 10^6 non-zeros (budget 512).
  // Not the others (0: no minimum), already at 80: under the cap the autonomous
  // megakernel's code took 6.08 instead of 5.88 us per iteration at 10^4 non-zeros.
  static constexpr int min_blocks_per_sm = V == Variant::stages_phases || V == Variant::checkpoints ? 3 : 0;

  // The body stays out of line: inlined into the megakernel it raises the kernel to its
  // register limit (about 128, so 2 blocks per SM); out of line the scheduler's loop and
  // the body are allocated separately and more blocks fit (docs/jacobi.md).
  template <class Ctx>
  __device__ static void execute(const Item& item, Ctx& ctx) {
    body(item, ctx);
  }

  template <class Ctx>
  __device__ __noinline__ static void body(ItemArg item, Ctx& ctx) {
    const TaskEnv& e = ctx.env();
    const DeviceData& d = e.d;
    const int rank = ctx.rank();
    auto* staged = ctx.template shared_as<StagedScratch>();
    Scratch* s = &staged->scratch;
    Stage* stage = &staged->stage;
    auto sync = [&] { ctx.sync(); };
    const int t = item.index;
    int k = item.iteration;

    if constexpr (V == Variant::stages_phases) {
      update_chunk<kRows>(d, t, k, rank, s, stage, sync);
      // The phase switch orders this iteration's writes before the check runs.
      if (rank == 0 && t == 0) ctx.template enqueue<Check<V>>(k);
    } else if constexpr (V == Variant::stages_deps) {
      // After the decision to stop, the check still releases the row tasks it holds
      // back (tasks must not be left waiting); they end here.
      if (k > 0 && stop_requested(d, rank, s, sync)) return;
      update_chunk<kRows>(d, t, k, rank, s, stage, sync);
      ctx.sync();  // every x(k+1) of this chunk is written before rank 0 resolves
      if (rank == 0) {
        if (k + 1 < d.max_iterations) ctx.template enqueue_after<JacobiRows<V>>(e.row_deps[t], 1, RowRef{t, k + 1});
        if (k == 0 && t == 0) ctx.template enqueue_after<Check<V>>(*e.check_dep, d.chunk_count, k);
        ctx.resolve(*e.check_dep);
      }
    } else if constexpr (V == Variant::checkpoints) {
      const bool done = update_chunk<kRows>(d, t, k, rank, s, stage, sync);  // rank 0: this task completed its unit
      if (rank == 0) s->flag[3] = done ? 1 : 0;
      ctx.sync();  // every x(k+1) of this chunk is written before any resolve; flag[3] is seen
      const bool window_end = (k + 1) % e.interval == 0 || k + 1 >= d.max_iterations;
      if (rank == 0 && k == 0 && t == 0) {
        const int first_end = e.interval < d.max_iterations ? e.interval : d.max_iterations;
        ctx.template enqueue_after<Checkpoint>(*e.check_dep, d.chunk_count, first_end - 1);
      }
      if (window_end) {
        if (rank == 0) ctx.resolve(*e.check_dep);
        return;
      }
      Dependency* next = e.row_deps + static_cast<std::size_t>((k + 1) & 1) * static_cast<std::size_t>(d.chunk_count);
      if (rank == 0) ctx.template enqueue_after<JacobiRows<V>>(next[t], e.wait_count[t], RowRef{t, k + 1});
      if (s->flag[3] != 0) {
        const int u = e.unit[t];
        for (int i = e.consumer_ptr[u] + rank; i < e.consumer_ptr[u + 1]; i += kTaskThreads)
          ctx.resolve(next[e.consumers[i]]);
      }
    } else {
      static_assert(V == Variant::autonomous);
      // A row task of the iteration after the stop runs ahead of the decision and
      // computes an iterate nobody reads: harmless (it writes neither the answer's buffer
      // nor the partials summed), and its arrival can never complete the iteration,
      // which the decider of k - 1 did not join. It runs to the end rather than check
      // the stop flag first: that check was one memory round trip and a barrier at the
      // start of every task, for work skipped once per solve.
      // No barrier after the change's sum: its scratch is next written after the
      // barrier that hands out the arrival's answer.
      update_chunk<kRows>(d, item.chunk(), t, k, rank, s, stage, sync, false);
      // The chunks of the next iteration's row tasks, which this task creates if it
      // arrives last: loaded now, their round trip overlaps the arrival's instead of
      // following it. Where every chunk has a thread, into the entries' stage (free
      // after update_chunk's last barrier); otherwise the fan-out loads them.
      static_assert(sizeof(stage->prod) >= kTaskThreads * sizeof(Chunk) && sizeof(Chunk) == 32);
      Chunk* next = reinterpret_cast<Chunk*>(stage->prod);
      const bool prefetched = d.chunk_count <= kTaskThreads;
      if (prefetched && rank < d.chunk_count) {
        auto* to = reinterpret_cast<char*>(&next[rank]);
        const auto* from = reinterpret_cast<const char*>(&d.chunks[rank]);
        __pipeline_memcpy_async(to, from, 16);
        __pipeline_memcpy_async(to + 16, from + 16, 16);
      }
      __pipeline_commit();
      // No barrier before rank 0 arrives: the sum's first barrier (block_sum) already
      // follows every thread's writes of x(k+1), and rank 0 wrote the partial itself.
      // The last warp reserves the positions of iteration k + 2 while the others
      // release k + 1: it has no row task of its own to release.
      const bool reserving = d.chunk_count <= kTaskThreads - 32 && d.max_iterations <= ReservedRecord::kMaxIteration;
      for (;;) {
        // Arrive for iteration k: chunk_count row tasks, plus the decider of k - 1.
        if (rank == 0) {
          // The positions of k + 1's row tasks, read before the arrival (one round trip
          // fewer after it). The decider of k - 1 wrote them before it arrived for k, so
          // after the last arrival of k a second read finds them if the first did not.
          unsigned long long record = atomic_ref<unsigned long long>(e.reserved[(k + 1) & 1]).load(cuda::std::memory_order_relaxed);
          const unsigned expected = static_cast<unsigned>(d.chunk_count) + (k > 0 ? 1u : 0u);
          const unsigned before = atomic_ref<unsigned>(e.arrivals[k]).fetch_add(1u, cuda::std::memory_order_acq_rel);
          s->flag[0] = before + 1 == expected ? 1 : 0;
          if (s->flag[0] != 0 && reserving && k > 0 && !ReservedRecord::names(record, k + 1))
            record = atomic_ref<unsigned long long>(e.reserved[(k + 1) & 1]).load(cuda::std::memory_order_relaxed);
          s->record = record;
        }
        __pipeline_wait_prior(0);  // (also before the block's next task reuses the stage)
        ctx.sync();
        if (s->flag[0] == 0) return;
        // This task is the last of iteration k, and the decision of k - 1 was "go on":
        // start iteration k+1 now, then decide about k while it runs. Iteration k+1
        // writes x(k+2) into the ring slot of x(k+2-ring) (no longer read; not x(k+1),
        // the answer if k stops) and the partials of the other parity.
        if (k + 1 < d.max_iterations) {
          const auto make = [&](int u) { return RowTask::of(prefetched ? next[u] : d.chunks[u], u, k + 1); };
          const bool reserve_next = reserving && k + 2 < d.max_iterations;
          const unsigned long long record = s->record;
          if (ReservedRecord::names(record, k + 1)) {
            if (reserve_next && rank >= kTaskThreads - 32) reserve_for(ctx, e, k + 2);
            ctx.template enqueue_reserved<JacobiRows<V>>(
                QueueReservation{ReservedRecord::first(record), static_cast<unsigned>(d.chunk_count)}, make);
          } else {  // the first fan-out: k + 2's positions must follow k + 1's
            ctx.template enqueue_each<JacobiRows<V>>(d.chunk_count, make);
            if (reserve_next) {
              ctx.sync();
              if (rank >= kTaskThreads - 32) reserve_for(ctx, e, k + 2);
            }
          }
        }
        if (reduce_and_decide(d, k, rank, s, sync)) return;
        ++k;  // go on: this task's arrival as the decider of k counts for iteration k + 1
      }
    }
  }
};

template <Variant V>
struct Check {
  using Item = std::int32_t;  // the iteration
  static constexpr int threads = kTaskThreads;
  static constexpr int shared_bytes = sizeof(Scratch);
  static constexpr const char* name = "Check";

  template <class Ctx>
  __device__ static void execute(const Item& k, Ctx& ctx) {
    body(k, ctx);
  }

  template <class Ctx>
  __device__ __noinline__ static void body(std::int32_t k, Ctx& ctx) {
    const TaskEnv& e = ctx.env();
    const DeviceData& d = e.d;
    const int rank = ctx.rank();
    auto* s = ctx.template shared_as<Scratch>();
    auto sync = [&] { ctx.sync(); };
    const bool stop = reduce_and_decide(d, k, rank, s, sync);
    if constexpr (V == Variant::stages_phases) {
      if (!stop)
        ctx.template enqueue_each<JacobiRows<V>>(d.chunk_count, [&](int t) { return RowRef{t, k + 1}; });
    } else {
      static_assert(V == Variant::stages_deps);
      // The check of k + 1 first (its predecessors may resolve before: allowed), then
      // release the row tasks of k + 1, which exist whenever k + 1 < max_iterations.
      // The stop flag was stored before the barrier in reduce_and_decide, so the
      // released tasks see it.
      if (!stop && rank == 0) ctx.template enqueue_after<Check<V>>(*e.check_dep, d.chunk_count, k + 1);
      if (k + 1 < d.max_iterations)
        for (int t = rank; t < d.chunk_count; t += kTaskThreads) ctx.resolve(e.row_deps[t]);
    }
  }
};

// checkpoints: the check of the window that ends with iteration `last`.
struct Checkpoint {
  using Item = std::int32_t;  // the window's last iteration
  static constexpr int threads = kTaskThreads;
  static constexpr int shared_bytes = sizeof(Scratch);
  static constexpr const char* name = "Checkpoint";

  template <class Ctx>
  __device__ static void execute(const Item& last, Ctx& ctx) {
    body(last, ctx);
  }

  template <class Ctx>
  __device__ __noinline__ static void body(std::int32_t last, Ctx& ctx) {
    const TaskEnv& e = ctx.env();
    const DeviceData& d = e.d;
    const int rank = ctx.rank();
    auto* s = ctx.template shared_as<Scratch>();
    auto sync = [&] { ctx.sync(); };
    const int first = last - (last % e.interval);
    // The window's changes in order; the first that means stopping decides (the limit
    // can only be the window's last iteration).
    for (int k = first; k <= last; ++k) {
      const double change = reduce_change(d, k, rank, s, sync);
      if (rank == 0) s->flag[1] = record_change(d, k, change) ? 1 : 0;
      sync();
      if (s->flag[1] != 0) return;
    }
    // Go on: the next window's check first (its predecessors may resolve before), then
    // its first iteration's row tasks, ready at once: all of this window has finished.
    const int next_first = last + 1;
    if (rank == 0) {
      const int window_end = next_first + e.interval < d.max_iterations ? next_first + e.interval : d.max_iterations;
      ctx.template enqueue_after<Checkpoint>(*e.check_dep, d.chunk_count, window_end - 1);
    }
    ctx.template enqueue_each<JacobiRows<Variant::checkpoints>>(d.chunk_count,
                                                                [&](int t) { return RowRef{t, next_first}; });
  }
};

using PhasesProgram = Program<Phase<JacobiRows<Variant::stages_phases>>, Phase<Check<Variant::stages_phases>>>;
using DepsProgram = Program<Phaseless<JacobiRows<Variant::stages_deps>, Check<Variant::stages_deps>>>;
using AutonomousProgram = Program<Phaseless<JacobiRows<Variant::autonomous>>>;
using CheckpointsProgram = Program<Phaseless<JacobiRows<Variant::checkpoints>, Checkpoint>>;

// The checkpoints variant's chunk graph, on the device.
struct DeviceChunkGraph {
  DeviceBuffer<std::int32_t> unit, wait_count, consumer_ptr, consumers;

  DeviceChunkGraph() = default;
  explicit DeviceChunkGraph(const ChunkGraph& g)
      : unit(std::span<const std::int32_t>(g.unit)),
        wait_count(std::span<const std::int32_t>(g.wait_count)),
        consumer_ptr(std::span<const std::int32_t>(g.consumer_ptr)),
        consumers(std::max<std::size_t>(g.consumers.size(), 1)) {
    consumers.copy_from(g.consumers);
  }
};

// JacobiOptions::run.blocks_per_sm = 0: about one megakernel block per row task of an
// iteration, ceil(chunks / SMs) per SM (at least 1; as many as fit from there on). The
// blocks that an iteration cannot use only poll: at 20 row tasks and 3 blocks per SM,
// 376 idle blocks took a Jacobi iteration at 10^4 non-zeros from 7.7 to 8.4 us, and at
// 99 tasks (10^5) from 9.2 to 10.5 us (H200, session 18).
int auto_blocks_per_sm(std::uint32_t chunks) {
  const int sms = multiprocessor_count();
  const std::uint32_t per_sm = (chunks + static_cast<std::uint32_t>(sms) - 1) / static_cast<std::uint32_t>(sms);
  return static_cast<int>(std::clamp<std::uint32_t>(per_sm, 1u, 1024u));  // the runtime caps it at what fits
}

template <Variant V, class P>
class TaskRunner final : public VariantRunner {
 public:
  TaskRunner(Workspace& ws, const JacobiProblem& p, const Partition& part, const JacobiOptions& o)
      : ws_(ws),
        graph_(V == Variant::checkpoints ? DeviceChunkGraph(chunk_graph(p, part)) : DeviceChunkGraph()),
        rt_(sized(o.run, ws), env_of(ws, graph_, o)),
        trace_(o.run.trace) {
    const auto chunks = static_cast<std::uint32_t>(ws.data.chunk_count);
    // At most one iteration's row tasks of a chunk are queued at once (autonomous: the
    // speculative one, released after the previous one has run), and in the autonomous
    // variant the next iteration's positions are reserved beside them; twice that is a
    // margin.
    rt_.template set_queue_capacity<JacobiRows<V>>(4 * chunks);
    if constexpr (V == Variant::stages_phases || V == Variant::stages_deps)
      rt_.template set_queue_capacity<Check<V>>(2);
    if constexpr (V == Variant::checkpoints) rt_.template set_queue_capacity<Checkpoint>(2);
    seeds_.resize(chunks);
    for (std::uint32_t t = 0; t < chunks; ++t) {
      const auto index = static_cast<std::int32_t>(t);
      if constexpr (V == Variant::autonomous) {
        seeds_[t] = RowTask::of(part.chunks[t], index, 0);
      } else {
        seeds_[t] = RowRef{index, 0};
      }
    }
  }

  RunnerResult run(Scheduler scheduler, cudaStream_t stream) override {
    rt_.template seed<JacobiRows<V>>(std::span<const RowItem<V>>(seeds_));
    RunnerResult r;
    r.stats = rt_.run(scheduler, stream);
    r.milliseconds = r.stats->milliseconds;
    if (trace_) {
      r.trace = rt_.trace();
      const auto names = P::type_names();
      r.queue_names.assign(names.begin(), names.end());
    }
    return r;
  }

 private:
  static RunOptions sized(RunOptions o, const Workspace& ws) {
    const auto chunks = static_cast<std::uint32_t>(ws.data.chunk_count);
    if (o.blocks_per_sm == 0) o.blocks_per_sm = auto_blocks_per_sm(chunks);
    o.queue_capacity = 2;
    o.cyclic = V == Variant::stages_phases;
    // stages-deps and checkpoints: at most every chunk's next row task plus the check
    // wait at once; twice as many slots keep the storage's linear probing short.
    o.waiting_capacity = V == Variant::stages_deps || V == Variant::checkpoints ? 2 * (chunks + 1) : 1;
    return o;
  }
  static TaskEnv env_of(Workspace& ws, DeviceChunkGraph& g, const JacobiOptions& o) {
    TaskEnv e;
    e.d = ws.data;
    e.row_deps = ws.deps.data();
    e.check_dep = ws.deps.data() + 2 * static_cast<std::size_t>(ws.data.chunk_count);
    e.arrivals = ws.arrivals.data();
    e.reserved = ws.reserved.data();
    e.unit = g.unit.data();
    e.wait_count = g.wait_count.data();
    e.consumer_ptr = g.consumer_ptr.data();
    e.consumers = g.consumers.data();
    e.interval = o.checkpoint_interval;
    return e;
  }

  Workspace& ws_;
  DeviceChunkGraph graph_;
  Runtime<P, TaskEnv> rt_;
  bool trace_;
  std::vector<RowItem<V>> seeds_;
};

}  // namespace

std::unique_ptr<VariantRunner> make_task_runner(Variant v, Workspace& ws, const JacobiProblem& p, const Partition& part,
                                                const JacobiOptions& o) {
  switch (v) {
    case Variant::stages_phases:
      return std::make_unique<TaskRunner<Variant::stages_phases, PhasesProgram>>(ws, p, part, o);
    case Variant::stages_deps:
      return std::make_unique<TaskRunner<Variant::stages_deps, DepsProgram>>(ws, p, part, o);
    case Variant::autonomous:
      return std::make_unique<TaskRunner<Variant::autonomous, AutonomousProgram>>(ws, p, part, o);
    case Variant::checkpoints:
      return std::make_unique<TaskRunner<Variant::checkpoints, CheckpointsProgram>>(ws, p, part, o);
    case Variant::kernels:
    case Variant::graph:
      break;
  }
  throw std::invalid_argument("jacobi: not a task variant");
}

}  // namespace apiary::jacobi::detail
