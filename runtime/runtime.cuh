// The host side of a run: allocates the queues, waiting storage and counters of a
// program, takes initial work (seed), prepares the device state before a run and
// turns the device counters into RunStats or a clear error afterwards.
//
//   apiary::Runtime<Program, Env> rt(options, env);
//   rt.seed<CreateLeg>(items);
//   apiary::RunStats s = rt.run(apiary::Scheduler::megakernel, stream);   // schedulers/run.cuh
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/context.cuh"
#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"
#include "runtime/device_buffer.hpp"
#include "runtime/device_view.cuh"
#include "runtime/errors.hpp"
#include "runtime/launch_resources.hpp"
#include "runtime/run_options.hpp"
#include "runtime/scheduler.hpp"
#include "runtime/stats.hpp"
#include "runtime/text.hpp"
#include "runtime/trace.hpp"

namespace apiary {


namespace detail {

// The run-wide words: where a run starts from, and what the host reads back after it
// (one copy). Words that different parties update are 256 bytes apart (kCounterSpacing,
// runtime/queue.hpp): with the queue counters 128 bytes from the control word, the H100
// ran trivial tasks 11-16% slower (contended atomics to lines of one 256-byte block; 256,
// 512 and 1024 measured alike).
// RunControl::error in the host's readback until the megakernel's last block writes the
// words back (no ErrorCode has this value).
inline constexpr int kNotWrittenBack = -1;

template <std::size_t Types, std::size_t Phases>
struct RunState {
  static_assert(Types <= 256, "prepare_run resets a queue's counters per thread of its first block");
  RunControl control;
  QueueCounters counters[Types];
  alignas(kCounterSpacing) long long pending[Phases > 0 ? Phases : 1];
};

// Seeds up to this size travel in prepare_run's parameters; larger ones are read from
// mapped pinned host memory, over the bus.
inline constexpr std::size_t kSeedsInParameters = 2048;

// Everything a run resets on the device, as the parameters of one kernel (prepare_run):
// the host pays one launch per run instead of a memset, a copy and a kernel per queue
// (each call into the CUDA runtime costs it microseconds, and a small run is mostly that).
// Small seeds come with them: with every queue's seeds read over the bus, prepare_run
// took 9.6 us under Nsight Compute for a triangular solve's two queues (H200, session 42),
// and without the event records around the megakernel (RunOptions::event_timer) the
// host's calls no longer outlast it.
template <std::size_t Types, std::size_t Phases>
struct RunReset {
  // The initial words that are not zero (RunControl and QueueCounters are 256-byte
  // aligned, which a kernel parameter is not): tail, ready and peak of a queue start at
  // its seeded count.
  long long active;
  unsigned long long phase_word;
  long long pending[Phases > 0 ? Phases : 1];
  RunState<Types, Phases>* state;
  std::uint32_t* wait_state;  // zeroed
  std::uint32_t wait_words;
  long long* workers;  // zeroed
  std::uint32_t worker_words;
  unsigned long long* trace_count;  // zeroed; null without tracing
  struct Queue {
    unsigned char* items;
    unsigned long long* seq;
    const unsigned char* seeds;  // mapped pinned host memory, 16-byte aligned; null: in inline_seeds
    std::uint64_t seed_bytes;
    std::uint32_t capacity;
    std::uint32_t seeded;
    std::uint32_t inline_offset;  // where seeds is null: the offset of its seeds in inline_seeds
  } queues[Types];
  alignas(16) unsigned char inline_seeds[kSeedsInParameters];
};

template <std::size_t Types, std::size_t Phases>
__global__ void prepare_run(const __grid_constant__ RunReset<Types, Phases> r) {
  const std::uint64_t first = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  if (first == 0) {
    RunControl c;
    c.active = r.active;
    c.phase_word = r.phase_word;
    // The watchdog's clock starts here, right before the run on the same stream, and not
    // with an atomic maximum from every block of a megakernel at its start: a thousand
    // RMWs on one word made a run of one task take microseconds longer.
    c.last_progress_ns = global_time_ns();
    r.state->control = c;
    for (std::size_t p = 0; p < (Phases > 0 ? Phases : 1); ++p) r.state->pending[p] = r.pending[p];
    if (r.trace_count != nullptr) *r.trace_count = 0;
  }
  if (first < Types) {  // a thread per queue: each is a kilobyte of mostly padding
    QueueCounters c;
    c.tail = c.ready = c.peak = r.queues[first].seeded;
    r.state->counters[first] = c;
  }
  for (std::uint64_t i = first; i < r.wait_words; i += stride) r.wait_state[i] = 0;
  for (std::uint64_t i = first; i < r.worker_words; i += stride) r.workers[i] = 0;
  for (std::size_t q = 0; q < Types; ++q) {
    const auto& s = r.queues[q];
    const unsigned char* seeds = s.seeds != nullptr ? s.seeds : r.inline_seeds + s.inline_offset;
    for (std::uint64_t i = first; i < s.capacity; i += stride)
      s.seq[i] = i < s.seeded ? i + 1 : i;  // seeded slots published, the rest free for lap 0
    const std::uint64_t words = s.seed_bytes / sizeof(uint4);
    for (std::uint64_t i = first; i < words; i += stride)
      reinterpret_cast<uint4*>(s.items)[i] = reinterpret_cast<const uint4*>(seeds)[i];
    for (std::uint64_t i = words * sizeof(uint4) + first; i < s.seed_bytes; i += stride) s.items[i] = seeds[i];
  }
}

}  // namespace detail

// A zero-initialised array of dependencies in device memory.
inline DeviceBuffer<Dependency> make_dependencies(std::size_t count, cudaStream_t stream = nullptr) {
  DeviceBuffer<Dependency> d(count);
  d.fill_zero(stream);
  APIARY_CUDA_CHECK(cudaStreamSynchronize(stream));
  return d;
}

template <class P, class Env = NoEnv>
class Runtime {
 public:
  using Program = P;
  using View = DeviceView<P, Env>;
  static constexpr std::size_t kTypes = P::type_count;
  static constexpr std::size_t kPhases = P::phase_count;
  using State = detail::RunState<kTypes, kPhases>;

  explicit Runtime(RunOptions options = {}, Env env = {}) : options_(options), env_(env), report_(1) {
    if (options_.waiting_capacity == 0) options_.waiting_capacity = 1;
    for (std::size_t q = 0; q < kTypes; ++q) allocate_queue(q, options_.queue_capacity);
    state_ = DeviceBuffer<State>(1);
    if (options_.waiting_capacity > kNoSlot - waiting_slot_reserve(View::wait_stride))
      throw std::invalid_argument(cat("RunOptions::waiting_capacity ", options_.waiting_capacity, " is too large"));
    wait_slots_ = options_.waiting_capacity + waiting_slot_reserve(View::wait_stride);
    wait_state_ = DeviceBuffer<std::uint32_t>(wait_slots_);
    wait_queue_ = DeviceBuffer<std::uint32_t>(wait_slots_);
    wait_items_ = DeviceBuffer<unsigned char>(std::size_t{wait_slots_} * View::wait_stride);
    wait_state_.fill_zero();
    workers_ = DeviceBuffer<long long>(2 * kTypes);
    if (options_.trace) {
      if (!kTraceKernels)
        throw std::invalid_argument("RunOptions::trace: this build has no traced kernels (APIARY_TRACE_KERNELS=OFF)");
      trace_ = DeviceBuffer<TraceRecord>(options_.trace_capacity);
      trace_count_ = DeviceBuffer<unsigned long long>(1);
    }
  }

  // A run that threw between its prepare and its finish may still have its kernel
  // reading the seeds' staging: wait for it before the mapped blocks go back to the
  // process's cache (runtime/mapped_blocks.hpp), where the next taker may write them.
  ~Runtime() {
    if (unfinished_) static_cast<void>(cudaStreamSynchronize(*unfinished_));
  }
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  // Capacity of one task type's queue (rounded up to a power of two).
  template <class T>
  void set_queue_capacity(std::uint32_t capacity) {
    allocate_queue(P::template queue_of<T>, capacity);
  }

  // Initial work for the next run.
  template <class T>
  void seed(std::span<const typename T::Item> items) {
    static_assert(P::template contains<T>, "seed<T>: T is not a task type of this program");
    auto& bytes = seeds_[P::template queue_of<T>];
    const auto* p = reinterpret_cast<const unsigned char*>(items.data());
    bytes.insert(bytes.end(), p, p + items.size_bytes());
  }
  template <class T>
  void seed(const typename T::Item& item) {
    seed<T>(std::span<const typename T::Item>(&item, 1));
  }

  // Executes everything seeded (and all it creates) under one scheduler.
  RunStats run(Scheduler scheduler, cudaStream_t stream = nullptr);  // in schedulers/run.cuh

  const RunOptions& options() const { return options_; }
  Env& env() { return env_; }
  const std::vector<TraceRecord>& trace() const { return trace_records_; }
  void write_trace(const std::filesystem::path& path, Scheduler scheduler) const {
    const auto names = P::type_names();
    write_chrome_trace(path, trace_records_, names, std::string(to_string(scheduler)));
  }

  // ---- for schedulers ----

  // Resets the device state, uploads the seeds and returns the view of this run: one
  // kernel launch (prepare_run), which takes the initial counters and up to
  // kSeedsInParameters bytes of seeds as parameters and reads larger seeds from mapped
  // pinned memory, so nothing here waits for the device and a run
  // pays one synchronisation, in finish. The staging is rewritten only by the next
  // prepare, after that finish, or after waiting for this one's kernel when a run failed
  // before its finish.
  View prepare(cudaStream_t stream) {
    if (unfinished_) {  // the last run threw between its prepare and its finish
      static_cast<void>(cudaStreamSynchronize(*unfinished_));
      unfinished_.reset();
    }
    using Reset = detail::RunReset<kTypes, kPhases>;
    static_assert(sizeof(Reset) <= 32764, "too many task types for one kernel's parameters");
    Reset r{};
    std::size_t seed_bytes = 0;
    for (const auto& s : seeds_) seed_bytes += align16(s.size());
    const bool in_parameters = seed_bytes <= sizeof(r.inline_seeds);
    unsigned char* staged = in_parameters ? r.inline_seeds : seed_staging_.reserve(seed_bytes);
    const unsigned char* staged_device = in_parameters ? nullptr : seed_staging_.device();
    std::uint32_t offset = 0;
    std::uint64_t most = std::max<std::uint64_t>(wait_slots_, 1);
    for (std::size_t q = 0; q < kTypes; ++q) {
      const std::uint32_t n = seeded_count(q);
      if (n > capacity_[q])
        throw OverflowError(cat("seeding ", n, " tasks of type ", P::type_names()[q],
                                " overflows its queue (capacity ", capacity_[q],
                                "): raise RunOptions::queue_capacity"));
      std::copy(seeds_[q].begin(), seeds_[q].end(), staged);
      r.queues[q] = {items_[q].data(), seq_[q].data(), staged_device, seeds_[q].size(), capacity_[q], n, offset};
      most = std::max<std::uint64_t>({most, capacity_[q], seeds_[q].size() / sizeof(uint4)});
      staged += align16(seeds_[q].size());
      offset += static_cast<std::uint32_t>(align16(seeds_[q].size()));
      if (!in_parameters) staged_device += align16(seeds_[q].size());
      r.active += n;
      if (P::phase_of_queue[q] >= 0) r.pending[P::phase_of_queue[q]] += n;
    }
    r.phase_word = phase_word(0);
    if constexpr (kPhases > 0) {
      for (std::size_t p = 0; p < kPhases; ++p)
        if (r.pending[p] > 0) {
          r.phase_word = phase_word(static_cast<int>(p));
          break;
        }
    }
    r.state = state_.data();
    r.wait_state = wait_state_.data();
    r.wait_words = wait_slots_;
    r.workers = workers_.data();
    r.worker_words = static_cast<std::uint32_t>(workers_.size());
    r.trace_count = options_.trace ? trace_count_.data() : nullptr;
    const auto blocks = static_cast<unsigned>(std::min<std::uint64_t>((most + 255) / 256, 1024));
    detail::prepare_run<kTypes, kPhases><<<blocks, 256, 0, stream>>>(r);
    APIARY_CUDA_CHECK_LAUNCH();
    unfinished_ = stream;
    for (auto& s : seeds_) s.clear();
    *report_.host() = WatchdogReport{};

    View v;
    for (std::size_t q = 0; q < kTypes; ++q)
      v.queues[q] = QueueView{items_[q].data(), seq_[q].data(), state_.data()->counters + q, capacity_[q]};
    v.control = &state_.data()->control;
    v.phase_pending = state_.data()->pending;
    v.wait_state = wait_state_.data();
    v.wait_queue = wait_queue_.data();
    v.wait_items = wait_items_.data();
    v.wait_capacity = options_.waiting_capacity;
    v.wait_slots = wait_slots_;
    v.trace = options_.trace ? trace_.data() : nullptr;
    v.trace_count = options_.trace ? trace_count_.data() : nullptr;
    v.trace_capacity = options_.trace ? options_.trace_capacity : 0;
    v.report = report_.device();
    v.readback = readback_.device();
    v.readback_bytes = static_cast<std::uint32_t>(sizeof(State));
    // Overwritten by the megakernel's last block; still there after a megakernel run means
    // the words did not come back (finish says so rather than read a stale run's).
    readback_.host()->control.error = detail::kNotWrittenBack;
    v.watchdog_ns = static_cast<unsigned long long>(watchdog_limit_seconds(options_, under_sanitizer_) * 1e9);
    v.drain_ns = static_cast<unsigned long long>(std::max(options_.drain_microseconds, 0.0) * 1e3);
    v.workers_in_flight = workers_.data();
    v.workers_not_started = workers_.data() + kTypes;
    v.cyclic = options_.cyclic;
    v.env = env_;
    return v;
  }

  // Waits for the run, turns a trapped kernel into a WatchdogError, checks the error
  // flags and fills the statistics.
  RunStats finish(Scheduler scheduler, cudaStream_t stream) {
    // The run-wide words come back in the same wait as the run: the megakernel's last
    // block writes them into the mapped readback; for the other schedulers, one
    // asynchronous copy into it.
    const cudaError_t copy =
        scheduler == Scheduler::megakernel
            ? cudaSuccess
            : cudaMemcpyAsync(readback_.host(), state_.data(), sizeof(State), cudaMemcpyDeviceToHost, stream);
    const cudaError_t sync = cudaStreamSynchronize(stream);
    unfinished_.reset();
    if (sync != cudaSuccess) {
      if (report_.host()->fired) throw WatchdogError(watchdog_message(*report_.host(), true));
      cuda_check(sync, "cudaStreamSynchronize (end of run)", __FILE__, __LINE__);
    }
    APIARY_CUDA_CHECK(copy);
    const RunControl control = readback_.host()->control;
    const QueueCounters* counters = readback_.host()->counters;
    const auto names = P::type_names();
    if (control.error == detail::kNotWrittenBack)
      throw RunError("the megakernel ended without writing back its run state");

    switch (static_cast<ErrorCode>(control.error)) {
      case ErrorCode::none: break;
      case ErrorCode::queue_overflow:
        throw OverflowError(cat("queue of task type ", names.at(control.error_queue), " overflowed its capacity of ",
                                capacity_.at(control.error_queue),
                                " items: raise RunOptions::queue_capacity (or set_queue_capacity<",
                                names.at(control.error_queue), ">)"));
      case ErrorCode::waiting_overflow:
        throw OverflowError(cat("waiting storage overflowed its capacity of ", options_.waiting_capacity,
                                " tasks while creating a task of type ", names.at(control.error_queue),
                                ": raise RunOptions::waiting_capacity"));
      case ErrorCode::watchdog: throw WatchdogError(watchdog_message(*report_.host(), false));
      case ErrorCode::phase_order:
        throw RunError(cat("a task of type ", names.at(control.error_queue),
                           " was created after its phase had finished, in a program that is not cyclic: set "
                           "RunOptions::cyclic"));
      case ErrorCode::bad_dependency:
        throw RunError(cat("enqueue_after<", names.at(control.error_queue), "> was given a negative predecessor count"));
      case ErrorCode::launch_failed:
        throw RunError(cat("a device-side launch of ",
                           control.error_queue >= 0 && control.error_queue < static_cast<int>(kTypes)
                               ? "the worker kernel of task type " + names[control.error_queue]
                               : std::string("the controller kernel"),
                           " failed: ", cudaGetErrorName(static_cast<cudaError_t>(control.error_detail)), " (",
                           cudaGetErrorString(static_cast<cudaError_t>(control.error_detail)), ")"));
    }
    if (control.waiting > 0) throw TasksLeftWaitingError(left_waiting_message(control.waiting));

    RunStats s;
    s.scheduler = scheduler;
    s.tasks_per_phase.assign(kPhases, 0);
    for (std::size_t q = 0; q < kTypes; ++q) {
      TypeStats t;
      t.name = names[q];
      t.phase = P::phase_of_queue[q];
      t.executed = counters[q].executed;
      t.peak_fill = counters[q].peak;
      t.capacity = capacity_[q];
      s.types.push_back(t);
      if (t.phase >= 0) s.tasks_per_phase[t.phase] += t.executed;
    }
    for_each_queue<P>([&]<std::size_t Q>() { s.types[Q].threads = P::template type_at<Q>::threads; });
    s.phase_switches = control.phase_switches;
    s.rounds = control.rounds;
    s.launches = control.launches;
    s.blocks = control.max_grid;  // the controller's largest worker grid; other schedulers set their own
    s.peak_waiting = static_cast<std::uint64_t>(control.peak_waiting);
    s.waiting_capacity = options_.waiting_capacity;
    if (options_.trace) {
      unsigned long long n = trace_count_.to_host()[0];
      n = std::min<unsigned long long>(n, options_.trace_capacity);
      trace_records_.resize(n);
      if (n > 0)
        APIARY_CUDA_CHECK(
            cudaMemcpy(trace_records_.data(), trace_.data(), n * sizeof(TraceRecord), cudaMemcpyDeviceToHost));
      s.trace_records = n;
    }
    return s;
  }

  std::uint32_t capacity(std::size_t q) const { return capacity_[q]; }

  // The last megakernel run's time by the device clock (RunControl::start_ns, end_ns, in
  // the words it wrote back): for runs without events (RunOptions::event_timer).
  double device_clock_ms() {
    const RunControl& c = readback_.host()->control;
    return c.end_ns > c.start_ns ? static_cast<double>(c.end_ns - c.start_ns) * 1e-6 : 0.0;
  }

  // Streams, events and mapped words of the host-driven schedulers, kept across runs.
  LaunchResources& launch_resources() { return launch_; }

 private:
  void allocate_queue(std::size_t q, std::uint32_t capacity) {
    if (capacity == 0) capacity = 1;
    if (capacity > (1u << 31)) throw std::invalid_argument("queue capacity above 2^31 items");
    capacity = std::bit_ceil(capacity);
    dispatch_queue<P>(q, [&]<std::size_t Q>() {
      items_[Q] = DeviceBuffer<unsigned char>(std::size_t{capacity} * sizeof(typename P::template type_at<Q>::Item));
    });
    seq_[q] = DeviceBuffer<unsigned long long>(capacity);
    capacity_[q] = capacity;
  }

  std::uint32_t seeded_count(std::size_t q) const {
    std::uint32_t n = 0;
    dispatch_queue<P>(q, [&]<std::size_t Q>() {
      n = static_cast<std::uint32_t>(seeds_[Q].size() / sizeof(typename P::template type_at<Q>::Item));
    });
    return n;
  }

  std::string left_waiting_message(long long waiting) {
    const std::vector<std::uint32_t> state = wait_state_.to_host();
    const std::vector<std::uint32_t> queue = wait_queue_.to_host();
    std::array<long long, kTypes> per_type{};
    for (std::size_t s = 0; s < state.size(); ++s)
      if (state[s] != 0 && queue[s] < kTypes) ++per_type[queue[s]];
    const auto names = P::type_names();
    std::string detail;
    for (std::size_t q = 0; q < kTypes; ++q)
      if (per_type[q] > 0) detail += cat(detail.empty() ? "" : ", ", per_type[q], " of type ", names[q]);
    return cat("the run ended with ", waiting, " task(s) still waiting for dependencies that were never resolved (",
               detail, ")");
  }

  std::string watchdog_message(const WatchdogReport& r, bool trapped) const {
    const auto names = P::type_names();
    std::string fills;
    for (int q = 0; q < r.queue_count && q < kMaxReportedQueues; ++q)
      fills += cat(q ? ", " : "", names[q], "=", r.fill[q]);
    return cat("watchdog: no task finished for ", r.idle_ns / 1e9, " s (limit ",
               watchdog_limit_seconds(options_, under_sanitizer_), under_sanitizer_ ? " s under compute-sanitizer" : " s",
               "); phase ", r.phase, ", ", r.active, " task(s) queued or running, ", r.waiting,
               " waiting; queue fill: ", fills,
               trapped ? ". A task never returned, so the kernel was stopped (the CUDA context is no longer usable)"
                       : "");
  }

  RunOptions options_;
  bool under_sanitizer_ = under_compute_sanitizer();  // scales the watchdog's limit
  Env env_;
  std::array<DeviceBuffer<unsigned char>, kTypes> items_;
  std::array<DeviceBuffer<unsigned long long>, kTypes> seq_;
  std::array<std::uint32_t, kTypes> capacity_{};
  std::array<std::vector<unsigned char>, kTypes> seeds_;
  DeviceBuffer<State> state_;
  std::uint32_t wait_slots_ = 0;
  DeviceBuffer<std::uint32_t> wait_state_;
  DeviceBuffer<std::uint32_t> wait_queue_;
  DeviceBuffer<unsigned char> wait_items_;
  DeviceBuffer<TraceRecord> trace_;
  DeviceBuffer<unsigned long long> trace_count_;
  MappedHostBuffer<WatchdogReport> report_;
  MappedHostBuffer<State> readback_;  // the run-wide words after a run
  MappedHostBytes seed_staging_;      // the seeds, read by prepare_run
  std::optional<cudaStream_t> unfinished_;  // the stream of a prepare whose finish has not run
  DeviceBuffer<long long> workers_;  // controller: in-flight and not-started worker blocks per queue
  std::vector<TraceRecord> trace_records_;
  LaunchResources launch_;
};

}  // namespace apiary
