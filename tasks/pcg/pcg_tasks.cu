// The PCG iteration as one task program: Program<Phaseless<StageTask>>, one task per
// chunk of a stage (stage_plan.hpp gives the cycle). A task does its chunk's work and
// leaves its partial sums; the last task of a stage to arrive (a per-stage counter)
// sums the partials in chunk order, decides (pcg_reference.hpp's tests, in its order)
// and enqueues the next stage's chunks with one fan-out. The run ends when a decision
// stops: no task is left.
//
// Memory ordering, as in the Jacobi task programs (tasks/jacobi/device.cuh): a task's
// writes are ordered before its arrival by a barrier over its threads and the acq_rel
// counter; the last arrival's enqueue releases them to the next stage's tasks, whose
// claim acquires. Vectors written in the run are read with plain loads (never __ldg,
// whose cache is not coherent), the scalars with __ldcg; matrix data with __ldg.
//
// Reductions are deterministic: a fixed butterfly per warp and the warps in order per
// task, the partials in chunk order per stage. A repeated solve gives the same bits.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "runtime/portable.hpp"
#include "sparse/convert.hpp"
#include "schedulers/run.cuh"
#include "tasks/pcg/task_loop.hpp"

namespace apiary::pcg {

namespace {

constexpr int kThreads = kStageThreads;

enum StopCode : int { kRunning = 0, kConverged = 1, kMaxIterations = 2, kBreakdown = 3 };
enum BreakdownWhat : int { kPq = 0, kRz = 1, kRnorm = 2 };

// Written by the deciders (one at a time: stages run in order), read by the next
// stages' tasks and by the host after the run.
struct LoopState {
  int iteration = 0;  // completed iterations
  int primed = 0;     // the priming pass of the update is done
  int stop = kRunning;
  int what = kPq;  // breakdown: which value
  int limit = 0;
  double b_norm = 1;
  double tolerance = 0;
  double rz = 0;
  double alpha = 0;
  double beta = 0;
  double residual = 1;  // ||r|| / ||b|| after the last iteration
  double bad_value = 0;  // breakdown: the value
};

// A triangle's sweep on the device (SweepTriangle).
struct DeviceSweep {
  const index_t* rows = nullptr;
  const index_t* row_ptr = nullptr;
  const index_t* col = nullptr;
  const double* val = nullptr;
  const double* diag = nullptr;
};

struct Pair {
  double a, b;
};

struct LoopData {
  int stage_count = 0;
  int chunk_count = 0;
  HostPreconditioner m = HostPreconditioner::none;
  const Stage* stages = nullptr;
  const StageChunk* chunks = nullptr;
  const index_t* a_ptr = nullptr;
  const index_t* a_col = nullptr;
  const double* a_val = nullptr;
  DeviceSweep lower, upper;
  const double* m_diag = nullptr;  // per row: jacobi diag(A), ic0 diag(L)
  const std::uint8_t* row_flags = nullptr;  // ic0: StagePlan::row_flags
  double *x = nullptr, *r = nullptr, *z = nullptr, *q = nullptr, *y = nullptr;
  double* p[2] = {nullptr, nullptr};  // pass k writes p[k & 1] and reads p[(k + 1) & 1]
  Pair* partial = nullptr;      // per chunk: its stage's own sum, its share of r.z
  unsigned* arrivals = nullptr;  // per stage
  double* history = nullptr;    // limit entries
  unsigned long long* stage_end = nullptr;  // kProfiledPasses x stage_count: global timer, ns
  LoopState* state = nullptr;
};

struct Scratch {
  Pair warp[kThreads / 32];
  int flag;
};

struct StageItem {
  std::int32_t chunk;
  std::int32_t stage;
};

// Sum over the task's threads, valid in rank 0, in a fixed order. Every thread calls it.
template <class Ctx>
__device__ Pair task_sum(Pair v, int rank, Scratch* s, const Ctx& ctx) {
  for (int off = 16; off > 0; off >>= 1) {
    v.a += __shfl_xor_sync(0xffffffffu, v.a, off);
    v.b += __shfl_xor_sync(0xffffffffu, v.b, off);
  }
  if ((rank & 31) == 0) s->warp[rank >> 5] = v;
  ctx.sync();
  Pair total{0, 0};
  if (rank == 0)
    for (int w = 0; w < kThreads / 32; ++w) {
      total.a += s->warp[w].a;
      total.b += s->warp[w].b;
    }
  ctx.sync();  // s->warp may be reused
  return total;
}

// For each row (position) of c: the dot product of its entries with gather(column),
// `lanes` threads a row, `Passes` rows per thread group at once; then finish(pos, sum,
// prepare(pos)) in the row's lane 0. prepare's loads (the row's own values that finish
// needs) are issued with the row pointers, so that they overlap the entries' loads
// rather than follow the sum. Each lane loads kSweepRounds of its row's entries (columns and
// values) before any gather, then the gathers: a chunk of many short rows is bound by
// the latency of these dependent loads, so as many as possible are in flight. A lane
// adds its entries in row order whatever kSweepRounds is. Every thread runs the same
// number of passes (the butterfly needs all lanes of a warp).
template <int Passes, class Prepare, class Gather, class Finish>
__device__ void sweep_rows(const StageChunk& c, const index_t* row_ptr, const index_t* col, const double* val,
                           int rank, Prepare&& prepare, Gather&& gather, Finish&& finish) {
  constexpr int R = kSweepRounds;
  const int lanes = c.lanes;
  const int groups = kThreads / lanes;
  const int group = rank / lanes;
  const int lane = rank % lanes;
  for (int base = c.begin; base < c.end; base += Passes * groups) {
    double acc[Passes];
    int k[Passes], end[Passes];
    decltype(prepare(0)) pre[Passes];
#pragma unroll
    for (int u = 0; u < Passes; ++u) {
      const int pos = base + u * groups + group;
      const bool active = pos < c.end;
      acc[u] = 0;
      k[u] = active ? __ldg(row_ptr + pos) + lane : 0;
      end[u] = active ? __ldg(row_ptr + pos + 1) : 0;
      pre[u] = active && lane == 0 ? prepare(pos) : decltype(prepare(0)){};
    }
    for (bool more = true; more;) {
      index_t j[Passes][R];
      double v[Passes][R], g[Passes][R];
#pragma unroll
      for (int u = 0; u < Passes; ++u)
#pragma unroll
        for (int r = 0; r < R; ++r) {
          const int e = k[u] + r * lanes;
          j[u][r] = e < end[u] ? __ldg(col + e) : -1;
          v[u][r] = e < end[u] ? __ldg(val + e) : 0.0;
        }
#pragma unroll
      for (int u = 0; u < Passes; ++u)
#pragma unroll
        for (int r = 0; r < R; ++r) g[u][r] = j[u][r] >= 0 ? gather(j[u][r]) : 0.0;
      more = false;
#pragma unroll
      for (int u = 0; u < Passes; ++u) {
#pragma unroll
        for (int r = 0; r < R; ++r)
          if (j[u][r] >= 0) acc[u] += v[u][r] * g[u][r];
        k[u] += R * lanes;
        more = more || k[u] < end[u];
      }
    }
#pragma unroll
    for (int u = 0; u < Passes; ++u) {
      if (base + u * groups >= c.end) break;  // the same for every thread of the task
      double sum = acc[u];
      for (int off = lanes >> 1; off > 0; off >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, off);
      const int pos = base + u * groups + group;
      if (pos < c.end && lane == 0) finish(pos, sum, pre[u]);
    }
  }
}

constexpr int kPasses = 2;

template <class Prepare, class Gather, class Finish>
__device__ void sweep(const StageChunk& c, const index_t* row_ptr, const index_t* col, const double* val, int rank,
                      Prepare&& prepare, Gather&& gather, Finish&& finish) {
  if (c.end - c.begin > kThreads / c.lanes)
    sweep_rows<kPasses>(c, row_ptr, col, val, rank, prepare, gather, finish);
  else
    sweep_rows<1>(c, row_ptr, col, val, rank, prepare, gather, finish);
}

// apply(i, load(i)) for every row i of an elementwise chunk, kUnroll rows per thread at
// once: their loads are all issued before the first store (the vectors might alias as
// far as the compiler knows, so it would not move a load above a store itself).
constexpr int kUnroll = 4;
template <class Load, class Apply>
__device__ void each_row(const StageChunk& c, int rank, Load&& load, Apply&& apply) {
  for (int base = c.begin + rank; base < c.end; base += kUnroll * kThreads) {
    decltype(load(0)) v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u)
      if (base + u * kThreads < c.end) v[u] = load(base + u * kThreads);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u)
      if (base + u * kThreads < c.end) apply(base + u * kThreads, v[u]);
  }
}

// What the update reads of row i: the four vectors and the preconditioner's diagonal
// and flags (loaded with them, not after them: the stores of the row come in between).
struct UpdateRow {
  double x, p, r, q, m;
  std::uint8_t flags;
};

// The update's share of the preconditioner in row i, from the new r: z where the row
// needs no other row, y where it needs only rows of other levels. Returns its r.z.
__device__ double precondition_row(const LoopData& d, int i, double ri, const UpdateRow& v) {
  switch (d.m) {
    case HostPreconditioner::none: d.z[i] = ri; return ri * ri;
    case HostPreconditioner::jacobi: {
      const double zi = ri / v.m;
      d.z[i] = zi;
      return ri * zi;
    }
    case HostPreconditioner::ic0: {
      if ((v.flags & kFirstLevel) == 0) return 0;
      const double yi = ri / v.m;
      d.y[i] = yi;
      if ((v.flags & kUpperFree) == 0) return 0;
      const double zi = yi / v.m;
      d.z[i] = zi;
      return ri * zi;
    }
  }
  return 0;
}

// The chunk's work; returns this thread's share of the chunk's partials: {the stage's
// own sum (spmv p.q, update r.r), r.z}.
__device__ Pair run_chunk(const LoopData& d, StageKind kind, const StageChunk& c, int rank) {
  Pair mine{0, 0};
  switch (kind) {
    case StageKind::forward: {
      // What a row of the level needs after its sum (prepare loads it with the row pointers).
      struct Row {
        index_t i;
        std::uint8_t flags;
        double d, r;
      };
      const DeviceSweep& t = d.lower;
      sweep(
          c, t.row_ptr, t.col, t.val, rank,
          [&](int pos) {
            const index_t i = __ldg(t.rows + pos);
            return Row{i, __ldg(d.row_flags + i), __ldg(t.diag + pos), d.r[i]};
          },
          [&](index_t j) { return d.y[j]; },
          [&](int, double sum, const Row& w) {
            const double yi = (w.r - sum) / w.d;
            d.y[w.i] = yi;
            if (w.flags & kUpperFree) {
              const double zi = yi / w.d;
              d.z[w.i] = zi;
              mine.b += w.r * zi;
            }
          });
      break;
    }
    case StageKind::backward: {
      struct Row {
        index_t i;
        double d, y, r;
      };
      const DeviceSweep& t = d.upper;
      sweep(
          c, t.row_ptr, t.col, t.val, rank,
          [&](int pos) {
            const index_t i = __ldg(t.rows + pos);
            return Row{i, __ldg(t.diag + pos), d.y[i], d.r[i]};
          },
          [&](index_t j) { return d.z[j]; },
          [&](int, double sum, const Row& w) {
            const double zi = (w.y - sum) / w.d;
            d.z[w.i] = zi;
            mine.b += w.r * zi;
          });
      break;
    }
    case StageKind::spmv: {
      // p = z + beta p, formed by every reader of an entry with the same fma (the same
      // bits as its owner's store); the first pass (no iteration done yet) takes p = z.
      const int k = __ldcg(&d.state->iteration);
      double* p_new = d.p[k & 1];
      const double* p_old = d.p[(k + 1) & 1];
      if (k == 0) {
        sweep(
            c, d.a_ptr, d.a_col, d.a_val, rank, [&](int i) { return d.z[i]; }, [&](index_t j) { return d.z[j]; },
            [&](int i, double sum, double pi) {
              p_new[i] = pi;
              d.q[i] = sum;
              mine.a += pi * sum;
            });
      } else {
        const double beta = __ldcg(&d.state->beta);
        auto p_at = [&](index_t j) { return fma(beta, p_old[j], d.z[j]); };
        sweep(c, d.a_ptr, d.a_col, d.a_val, rank, p_at, p_at, [&](int i, double sum, double pi) {
          p_new[i] = pi;
          d.q[i] = sum;
          mine.a += pi * sum;
        });
      }
      break;
    }
    case StageKind::update: {
      const double alpha = __ldcg(&d.state->alpha);
      const double* p = d.p[__ldcg(&d.state->iteration) & 1];
      const bool has_m = d.m != HostPreconditioner::none, has_flags = d.m == HostPreconditioner::ic0;
      each_row(c, rank,
               [&](int i) {
                 return UpdateRow{d.x[i], p[i], d.r[i], d.q[i], has_m ? __ldg(d.m_diag + i) : 0.0,
                                  has_flags ? __ldg(d.row_flags + i) : std::uint8_t{0}};
               },
               [&](int i, const UpdateRow& v) {
                 d.x[i] = v.x + alpha * v.p;
                 const double ri = v.r - alpha * v.q;
                 d.r[i] = ri;
                 mine.a += ri * ri;
                 mine.b += precondition_row(d, i, ri, v);
               });
      break;
    }
  }
  return mine;
}

__device__ bool positive(double v) { return v > 0 && isfinite(v); }

__device__ void stop_with(LoopState& s, int code) { s.stop = code; }
__device__ void break_down(LoopState& s, int what, double value) {
  s.what = what;
  s.bad_value = value;
  s.stop = kBreakdown;
}

// Rank 0 of the last task of a stage: the decisions after it, with the stage's sums
// ({own, r.z}: stage_plan.hpp). Returns whether the iteration goes on.
__device__ bool decide(const LoopData& d, const Stage& st, Pair total) {
  LoopState& s = *d.state;
  if (st.kind == StageKind::spmv) {  // p.q
    if (!positive(total.a)) {
      break_down(s, kPq, total.a);
      return false;
    }
    s.alpha = s.rz / total.a;
  } else if (st.kind == StageKind::update && s.primed == 0) {  // r = b: no test
    s.primed = 1;
  } else if (st.kind == StageKind::update) {  // r.r
    const int k = ++s.iteration;
    const double residual = sqrt(total.a) / s.b_norm;
    s.residual = residual;
    d.history[k - 1] = residual;
    if (!isfinite(residual)) {
      break_down(s, kRnorm, residual);
    } else if (residual < s.tolerance) {
      stop_with(s, kConverged);
    } else if (k == s.limit) {
      stop_with(s, kMaxIterations);
    }
    if (s.stop != kRunning) return false;
  }
  if (st.ends_preconditioner) {  // r.z
    if (s.iteration > 0 && !positive(total.b)) {
      break_down(s, kRz, total.b);
      return false;
    }
    s.beta = s.iteration > 0 ? total.b / s.rz : 0.0;
    s.rz = total.b;
  }
  return true;
}

struct StageTask {
  using Item = StageItem;
  static constexpr int threads = kThreads;
  static constexpr int shared_bytes = sizeof(Scratch);
  static constexpr const char* name = "PcgStage";

  // Out of line, like the Jacobi row task, so that the scheduler's loop and the body are
  // allocated registers separately.
  template <class Ctx>
  __device__ static void execute(const Item& item, Ctx& ctx) {
    body(item, ctx);
  }

  template <class Ctx>
  __device__ __noinline__ static void body(StageItem item, Ctx& ctx) {
    const LoopData& d = ctx.env();
    const int rank = ctx.rank();
    auto* s = ctx.template shared_as<Scratch>();
    const Stage st = d.stages[item.stage];
    const Pair part = task_sum(run_chunk(d, st.kind, d.chunks[item.chunk], rank), rank, s, ctx);
    if (rank == 0) d.partial[item.chunk] = part;
    ctx.sync();  // every write of this chunk is done before rank 0 arrives
    if (rank == 0) {
      atomic_ref<unsigned> arrivals(d.arrivals[item.stage]);
      const unsigned before = arrivals.fetch_add(1u, cuda::std::memory_order_acq_rel);
      const bool last = before + 1 == static_cast<unsigned>(st.chunk_count);
      // The stage's next use is an iteration later, after this task's enqueue: relaxed.
      if (last) arrivals.store(0u, cuda::std::memory_order_relaxed);
      s->flag = last ? 1 : 0;
    }
    ctx.sync();
    if (s->flag == 0) return;
    if (rank == 0) {
      const int pass = __ldcg(&d.state->iteration);
      if (pass < kProfiledPasses) d.stage_end[pass * d.stage_count + item.stage] = global_time_ns();
    }
    if (st.kind == StageKind::spmv || st.kind == StageKind::update || st.ends_preconditioner) {
      Pair acc{0, 0};
      if (st.kind == StageKind::spmv || st.kind == StageKind::update)
        for (int c = st.first_chunk + rank; c < st.first_chunk + st.chunk_count; c += kThreads)
          acc.a += __ldcg(&d.partial[c].a);
      if (st.ends_preconditioner)
        for (int c = rank; c < d.chunk_count; c += kThreads) acc.b += __ldcg(&d.partial[c].b);
      const Pair total = task_sum(acc, rank, s, ctx);
      if (rank == 0) s->flag = decide(d, st, total) ? 1 : 0;
      ctx.sync();
      if (s->flag == 0) return;
    }
    const int next = item.stage + 1 == d.stage_count ? 0 : item.stage + 1;
    const Stage ns = d.stages[next];
    ctx.template enqueue_each<StageTask>(ns.chunk_count, [&](int u) { return StageItem{ns.first_chunk + u, next}; });
  }
};

using LoopProgram = Program<Phaseless<StageTask>>;

using Clock = std::chrono::steady_clock;

template <class T>
DeviceBuffer<T> upload(const std::vector<T>& v) {
  return DeviceBuffer<T>(std::span<const T>(v.data(), v.size()));
}

// A SweepTriangle on the device.
struct SweepBuffers {
  DeviceBuffer<index_t> rows, row_ptr, col;
  DeviceBuffer<double> val, diag;
  SweepBuffers() = default;
  explicit SweepBuffers(const SweepTriangle& t)
      : rows(upload(t.rows)), row_ptr(upload(t.row_ptr)), col(upload(t.col)), val(upload(t.val)), diag(upload(t.diag)) {}
  DeviceSweep view() const { return {rows.data(), row_ptr.data(), col.data(), val.data(), diag.data()}; }
};

}  // namespace

struct TaskLoop::Impl {
  Scheduler scheduler = Scheduler::megakernel;
  index_t n = 0;
  StagePlan plan;
  TaskLoopInfo info;
  DeviceBuffer<Stage> stages;
  DeviceBuffer<StageChunk> chunks;
  DeviceBuffer<index_t> a_ptr, a_col;
  DeviceBuffer<double> a_val, m_diag;
  DeviceBuffer<std::uint8_t> row_flags;
  SweepBuffers lower, upper;
  DeviceBuffer<double> x, r, z, p0, p1, q, y, history;
  DeviceBuffer<Pair> partial;
  DeviceBuffer<unsigned> arrivals;
  DeviceBuffer<unsigned long long> stage_end;
  DeviceBuffer<LoopState> state;
  HostPreconditioner m = HostPreconditioner::none;
  std::vector<StageItem> seeds;
  std::unique_ptr<Runtime<LoopProgram, LoopData>> rt;
  cudaStream_t stream = nullptr;

  ~Impl() {
    if (stream != nullptr) {
      cudaStreamSynchronize(stream);
      cudaStreamDestroy(stream);
    }
  }

  LoopData data() {
    LoopData d;
    d.stage_count = static_cast<int>(plan.stages.size());
    d.chunk_count = static_cast<int>(plan.chunks.size());
    d.m = m;
    d.stages = stages.data();
    d.chunks = chunks.data();
    d.a_ptr = a_ptr.data();
    d.a_col = a_col.data();
    d.a_val = a_val.data();
    d.lower = lower.view();
    d.upper = upper.view();
    d.m_diag = m_diag.data();
    d.row_flags = row_flags.data();
    d.x = x.data();
    d.r = r.data();
    d.z = z.data();
    d.p[0] = p0.data();
    d.p[1] = p1.data();
    d.q = q.data();
    d.y = y.data();
    d.partial = partial.data();
    d.arrivals = arrivals.data();
    d.history = history.data();
    d.stage_end = stage_end.data();
    d.state = state.data();
    return d;
  }
};

namespace {

// Mean time per iteration of each kind of stage over the whole passes 1, 2, ... of the
// recorded ones (see task_loop.hpp): a stage's time runs from the end of the stage
// before it (in the cycle) to its own end. Pass k ends with the update of iteration
// k + 1, so passes [1, iterations) are whole.
std::vector<std::pair<std::string, double>> stage_profile(const StagePlan& plan,
                                                          const std::vector<unsigned long long>& end, int iterations) {
  std::vector<std::pair<std::string, double>> out;
  const auto stages = static_cast<int>(plan.stages.size());
  const int last = std::min(iterations, kProfiledPasses);  // passes [1, last)
  if (last < 2) return out;
  for (int k = 1; k < last; ++k)
    for (int st = 0; st < stages; ++st) {
      const unsigned long long before =
          st == 0 ? end[static_cast<std::size_t>((k - 1) * stages + stages - 1)] : end[static_cast<std::size_t>(k * stages + st - 1)];
      const double us = static_cast<double>(end[static_cast<std::size_t>(k * stages + st)] - before) * 1e-3 / (last - 1);
      const std::string name(to_string(plan.stages[static_cast<std::size_t>(st)].kind));
      auto it = std::find_if(out.begin(), out.end(), [&](const auto& e) { return e.first == name; });
      if (it == out.end())
        out.emplace_back(name, us);
      else
        it->second += us;
    }
  return out;
}

}  // namespace

TaskLoop::TaskLoop(const Csr<double>& a, HostPreconditioner m, const Csr<double>* factor, Scheduler scheduler,
                   const StageBudgets& budgets, int blocks_per_sm)
    : impl_(std::make_unique<Impl>()) {
  sparse::require_square(a, "pcg");
  if (a.rows == 0) throw std::invalid_argument("pcg: the matrix is empty");
  Impl& s = *impl_;
  s.scheduler = scheduler;
  s.m = m;
  s.n = a.rows;
  const auto t0 = Clock::now();
  SweepTriangle lower, upper;
  if (m == HostPreconditioner::ic0) {
    if (factor == nullptr || factor->rows != a.rows)
      throw std::invalid_argument("pcg: the ic0 task loop needs the IC(0) factor of the matrix");
    lower = sweep_triangle(*factor, false);
    upper = sweep_triangle(sparse::transpose(*factor), true);
    s.info.forward_levels = lower.levels();
    s.info.backward_levels = upper.levels();
  }
  RunOptions ro;
  ro.queue_capacity = 2;
  ro.waiting_capacity = 1;  // no dependencies: the stages are ordered by arrival counters
  ro.blocks_per_sm = blocks_per_sm;
  s.rt = std::make_unique<Runtime<LoopProgram, LoopData>>(ro);  // its env is set per solve
  StageBudgets b = budgets;
  // Under every scheduler a stage is sized to the megakernel's wave of tasks.
  if (b.tasks == 0) b.tasks = megakernel::resident_blocks(*s.rt);
  s.plan = plan_stages(a.row_ptr, m, &lower, &upper, b);
  s.info.stages = static_cast<int>(s.plan.stages.size());
  s.info.tasks = static_cast<int>(s.plan.chunks.size());
  s.info.budgets = b;
  s.info.analysis_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  if (m == HostPreconditioner::jacobi) s.m_diag = to_device(positive_diagonal(a));
  if (m == HostPreconditioner::ic0) {
    std::vector<double> diag(static_cast<std::size_t>(a.rows));
    for (index_t pos = 0; pos < a.rows; ++pos) diag[static_cast<std::size_t>(lower.rows[pos])] = lower.diag[pos];
    s.m_diag = upload(diag);
    s.row_flags = upload(s.plan.row_flags);
  }

  s.stages = upload(s.plan.stages);
  s.chunks = upload(s.plan.chunks);
  s.a_ptr = upload(a.row_ptr);
  s.a_col = upload(a.col);
  s.a_val = upload(a.val);
  s.lower = SweepBuffers(lower);
  s.upper = SweepBuffers(upper);
  const auto n = static_cast<std::size_t>(a.rows);
  for (DeviceBuffer<double>* v : {&s.x, &s.r, &s.z, &s.p0, &s.p1, &s.q, &s.y}) *v = DeviceBuffer<double>(n);
  s.partial = DeviceBuffer<Pair>(s.plan.chunks.size());
  s.arrivals = DeviceBuffer<unsigned>(s.plan.stages.size());
  s.stage_end = DeviceBuffer<unsigned long long>(kProfiledPasses * s.plan.stages.size());
  s.state = DeviceBuffer<LoopState>(1);
  APIARY_CUDA_CHECK(cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking));

  // One stage's tasks are queued at a time.
  s.rt->set_queue_capacity<StageTask>(static_cast<std::uint32_t>(2 * s.plan.max_chunks));
  // The run starts with the priming pass of the update (stage_plan.hpp).
  const std::int32_t update = s.plan.update_stage();
  const Stage& first = s.plan.stages[static_cast<std::size_t>(update)];
  for (std::int32_t c = 0; c < first.chunk_count; ++c) s.seeds.push_back({first.first_chunk + c, update});
  APIARY_CUDA_CHECK(cudaDeviceSynchronize());
}

TaskLoop::~TaskLoop() = default;

TaskLoopInfo TaskLoop::info() const { return impl_->info; }

PcgResult TaskLoop::solve(std::span<const double> b, const PcgOptions& o) {
  Impl& s = *impl_;
  if (b.size() != static_cast<std::size_t>(s.n))
    throw std::invalid_argument("pcg: b has " + std::to_string(b.size()) + " entries, the matrix " +
                                std::to_string(s.n) + " rows");
  const int limit = checked_iteration_limit(o, s.n);
  PcgResult res;
  double bb = 0;
  for (double v : b) bb += v * v;
  const double b_norm = std::sqrt(bb);
  if (b_norm == 0) {  // x = 0 after 0 iterations, as pcg_reference
    res.stop = Stop::converged;
    res.x.assign(b.size(), 0.0);
    return res;
  }
  if (s.history.size() < static_cast<std::size_t>(limit)) s.history = DeviceBuffer<double>(static_cast<std::size_t>(limit));
  s.rt->env() = s.data();
  LoopState init;
  init.limit = limit;
  init.b_norm = b_norm;
  init.tolerance = o.tolerance;
  s.state.copy_from(std::span<const LoopState>(&init, 1), s.stream);
  s.r.copy_from(b, s.stream);
  // The priming update reads x, p and q (alpha = 0); the first r.z sum reads every
  // chunk's partial, the spmv's before they run.
  for (DeviceBuffer<double>* v : {&s.x, &s.p0, &s.p1, &s.q}) v->fill_zero(s.stream);
  s.partial.fill_zero(s.stream);
  s.arrivals.fill_zero(s.stream);
  s.rt->seed<StageTask>(std::span<const StageItem>(s.seeds));
  APIARY_CUDA_CHECK(cudaStreamSynchronize(s.stream));

  const auto t0 = Clock::now();
  const RunStats stats = s.rt->run(s.scheduler, s.stream);
  APIARY_CUDA_CHECK(cudaStreamSynchronize(s.stream));
  res.milliseconds = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  s.info.blocks = stats.blocks;
  s.info.threads_per_block = stats.threads_per_block;

  const LoopState out = s.state.to_host(s.stream).front();
  res.iterations = out.iteration;
  res.residual = out.residual;
  if (out.iteration > 0) {
    std::vector<double> h(static_cast<std::size_t>(out.iteration));
    APIARY_CUDA_CHECK(
        cudaMemcpyAsync(h.data(), s.history.data(), h.size() * sizeof(double), cudaMemcpyDeviceToHost, s.stream));
    APIARY_CUDA_CHECK(cudaStreamSynchronize(s.stream));
    res.history = std::move(h);
  }
  switch (out.stop) {
    case kConverged: res.stop = Stop::converged; break;
    case kMaxIterations:
      res.stop = Stop::max_iterations;
      res.reason = max_iterations_reason(res.iterations, res.residual, o.tolerance);
      break;
    case kBreakdown: {
      static constexpr const char* what[] = {"p.Ap", "r.z", "||r||"};
      // p.Ap belongs to the iteration under way, the others to the last one completed.
      res.stop = Stop::breakdown;
      res.reason = breakdown_reason(what[out.what], out.what == kPq ? out.iteration + 1 : out.iteration, out.bad_value);
      break;
    }
    default:
      throw std::runtime_error("pcg: the task program ended without a decision (stop code " +
                               std::to_string(out.stop) + ")");
  }
  res.stage_us = stage_profile(s.plan, s.stage_end.to_host(s.stream), out.iteration);
  res.x = s.x.to_host(s.stream);
  return res;
}

}  // namespace apiary::pcg
