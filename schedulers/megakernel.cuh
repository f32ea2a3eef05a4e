// The megakernel scheduler: persistent blocks, as many as fit on the device, each
// repeatedly claiming a batch of tasks from one queue of the current phase (or a
// phaseless queue), executing it, and helping to switch phases and to detect the end.
//
// Control decisions are taken by thread 0 of a block while the others wait at the
// block barrier; the batch is then staged in shared memory and executed by groups of
// Task::threads threads. See docs/schedulers.md.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "runtime/context.cuh"
#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"
#include "runtime/event_timer.hpp"
#include "runtime/runtime.cuh"
#include "schedulers/execute.cuh"

namespace apiary::megakernel {

template <class P>
struct Config {
  // Threads per block: at least 256 so small tasks come in large batches.
  static constexpr int block_threads = P::max_threads > 256 ? P::max_threads : 256;
  // Multi-warp tasks need a named barrier each (ids 1..15).
  template <class T>
  static constexpr int batch = sched::batch_size(T::threads, block_threads);
  // A block claims up to this many batches at once from a deep queue and runs them one
  // after another (claim_work: deep claims).
  static constexpr unsigned deep_rounds = 4;
  static constexpr std::size_t align16(std::size_t b) { return sched::align16(b); }
  static constexpr std::size_t stage_bytes = [] {
    std::size_t m = 16;
    for_each_queue<P>([&]<std::size_t Q>() {
      using T = typename P::template type_at<Q>;
      m = std::max(m, align16(batch<T> * deep_rounds * sizeof(typename T::Item)));
    });
    return m;
  }();
  static constexpr std::size_t task_shared_bytes = [] {
    std::size_t m = 0;
    for_each_queue<P>([&]<std::size_t Q>() {
      using T = typename P::template type_at<Q>;
      m = std::max(m, batch<T> * align16(T::shared_bytes));
    });
    return m;
  }();
  static constexpr std::size_t shared_bytes = stage_bytes + task_shared_bytes;
  // The most resident blocks per SM any task type asks for (an optional
  // `static constexpr int min_blocks_per_sm`): a register cap for the whole kernel, for a
  // task body that would otherwise take it past what that many blocks leave.
  static constexpr int asked_min_blocks = [] {
    int m = 0;
    for_each_queue<P>([&]<std::size_t Q>() {
      using T = typename P::template type_at<Q>;
      if constexpr (requires { T::min_blocks_per_sm; }) m = std::max(m, static_cast<int>(T::min_blocks_per_sm));
    });
    return m;
  }();
#if defined(__CUDACC_RDC__)
  // Relocatable device code (the build with the controller scheduler) compiles a task's
  // non-inlined function apart from the kernel that calls it: ptxas cannot hold it to
  // the kernel's register cap and refuses a cap it exceeds. No minimum there.
  static constexpr int min_blocks = 1;
#else
  // Two blocks per SM up to 256 threads a block, which caps a thread at 128 registers;
  // one block above; more where a task type asks (asked_min_blocks). A 512-thread block
  // then gets the same 128 (a minimum of two would cap it at 64): the RCM program's
  // 512-thread tasks (docs/schedulers.md, Megakernel).
  static constexpr int min_blocks = std::max(block_threads <= 256 ? 2 : 1, asked_min_blocks);
#endif
};

struct Claim {
  int queue = -1;
  std::uint32_t count = 0;  // tasks to run now
  unsigned long long first = 0;
  int exit = 0;
  int idle = 0;   // nothing to do this round: back off
  int local = 0;  // the one task in the block's continuation slot, not a queue batch
  int more = 0;   // the queue had work left after this claim
  unsigned rounds = 1;  // batches to claim at once on the block's next (eager) claim of the queue
  unsigned batch = 0;   // the queue's batch: a claim of more tasks is a deep claim
  unsigned take = 0;    // items to read from positions first, first + 1, ... into the stage
  unsigned offset = 0;  // where in the stage the tasks to run now are
  int staged = 0;       // the task is in the stage already (await_claim)
  int waiting = 0;      // a waiting claim of position `first` whose item await_claim waits for
  int taken = 0;        // await_claim: a poller has acted on the claim (exchanged to 1)
};

// Waiting claims: in a program of one phaseless queue whose tasks fill a block (a batch
// of one), a block that finds the queue empty does not poll it; it claims the queue's
// next position anyway and waits for that position's item (waiting_claim, await_claim). A claim
// that finds nothing ready otherwise costs the block its poll, two RMWs and the take
// after the item appears — about five dependent memory round trips between a fan-out's
// publication and its tasks' starts; a waiting block starts one round trip after the
// publication, plus the item's load. Only with one queue: a block waiting on one queue
// cannot serve another, and with one queue every published item goes to the oldest
// waiting claim, so a wait ends as soon as anything is published. Only for batches of
// one: a block waiting for a whole batch could hold published tasks back. `ready` then
// counts published minus claimed positions, below zero while blocks wait.
template <class P>
inline constexpr bool waiting_claims = P::type_count == 1 && P::phaseless_count == 1 &&
                                       Config<P>::template batch<typename P::template type_at<0>> == 1;

using sched::block_barrier;
using sched::phase_has_ready_work;
using sched::switch_phase;

// The block that found the run without progress: report, abort, give the other
// blocks time to leave; a task that never returns would keep the kernel alive
// forever, so then stop it (the host reads the report in mapped memory).
template <class V>
__device__ void watchdog_fire(const V& v, unsigned long long idle_ns) {
  if (!sched::claim_watchdog_error(v)) {
    atomic_ref<int>(v.control->abort).store(1);
    return;
  }
  sched::write_watchdog_report(v, idle_ns);
  const unsigned long long grace = sched::watchdog_grace_ns(v);
  const unsigned long long t0 = global_time_ns();
  while (static_cast<int>(gridDim.x) - atomic_ref<int>(v.control->exited_blocks).load() > 1) {
    if (global_time_ns() - t0 > grace) __trap();
    __nanosleep(1000);
  }
}

// Thread 0, in a program with waiting claims (above), after a poll found the queue
// empty: claims the next position (a debt against `ready` that a later publication pays);
// the block's pollers then wait for its item (await_claim).
template <class V>
__device__ __noinline__ Claim waiting_claim(const V& v) {
  static_assert(may_hold_claimed_slot<typename V::Program>, "waiting claims: producers must free a held slot");
  Claim c;
  const QueueView& q = v.queues[0];
  atomic_ref<long long>(q.counters->ready).fetch_sub(1, cuda::std::memory_order_relaxed);
  c.first = atomic_ref<unsigned long long>(q.counters->head).fetch_add(1, cuda::std::memory_order_relaxed);
  c.waiting = 1;
  return c;
}

// The pollers of a waiting claim: lane 0 of the block's first kWaitPollers warps, each
// starting kWaitStaggerNs after the one before. A poll is an acquire load, one round trip
// under load (plus the sleep), and a poller sees a publication only with its next poll:
// one poller let the starts of a fan-out's tasks wait up to that long for it. Staggered
// pollers see it sooner (Jacobi's autonomous iteration 6.39 -> 5.85 us at 10^4
// non-zeros, 7.92 -> 7.64 us at 10^5, H200, session 26; 8 pollers 96 ns apart were no
// better; at 10^7, where idle blocks share SMs with running tasks, 1-1.5% slower).
inline constexpr unsigned kWaitPollers = 4;
inline constexpr unsigned kWaitStaggerNs = 192;

// The threads of a block with a waiting claim (claim.waiting, from waiting_claim): its
// pollers wait until the claimed position's item is published, or until the run ends (no
// task is left, so nothing will be published: the position is never used), is aborted, or
// the watchdog fires; the first poller to see either sets claim.taken (an exchange, so
// exactly one of them acts) and, for an item, reads it into the stage (queue_take's steps,
// without its second look at the sequence number, and without freeing the slot: the block
// frees it after the task, with the release fence that ends its batch, in
// free_claimed_slot; freed here, its own release fence cost Jacobi's autonomous iteration
// 0.27-0.4 us at 10^4 and 10^5 non-zeros, H100, session 25). The first poller checks the
// run's words every 8th poll. Out of line: it is the idle path, and inlined it would cost
// the scheduler's loop registers.
template <class V>
__device__ __noinline__ void await_claim(const V& v, Claim& claim, unsigned long long& claimed, unsigned char* stage) {
  using Item = typename V::Program::template type_at<0>::Item;
  using u64 = unsigned long long;
  const unsigned poller = threadIdx.x / 32;
  if (threadIdx.x % 32 != 0 || poller >= kWaitPollers) return;
  const QueueView& q = v.queues[0];
  const u64 pos = claim.first;
  // claim.taken only through atomics: racecheck reports a plain or relaxed load beside
  // another poller's exchange as a hazard. (Not claim.waiting: the block's other threads
  // may still be reading that to decide whether to come here.)
  auto open = [&] { return atomicOr(&claim.taken, 0) == 0; };
  auto take_over = [&] { return atomicExch(&claim.taken, 1) == 0; };  // false: another poller acted
  atomic_ref<u64> seq(q.seq[pos & (q.capacity - 1)]);
  if (poller != 0) __nanosleep(poller * kWaitStaggerNs);
  for (unsigned i = 1; open(); ++i) {
    if (seq.load(cuda::std::memory_order_acquire) == pos + 1) {
      if (!take_over()) return;
      *reinterpret_cast<Item*>(stage) = static_cast<const Item*>(q.items)[pos & (q.capacity - 1)];
      claim.queue = 0;
      claim.count = 1;
      claim.batch = 1;
      claim.staged = 1;
      claimed = pos + 1;
      return;
    }
    // The run's words every 8th poll: they sit on lines that every batch's end updates.
    if (poller == 0 && i % 8 == 0) {
      RunControl* ctl = v.control;
      const int abort_flag = atomic_ref<int>(ctl->abort).load(cuda::std::memory_order_relaxed);
      const int done_flag = atomic_ref<int>(ctl->done).load(cuda::std::memory_order_relaxed);
      const long long active = atomic_ref<long long>(ctl->active).load(cuda::std::memory_order_relaxed);
      if (abort_flag != 0 || done_flag != 0 || active == 0) {
        if (!take_over()) return;
        if (abort_flag == 0) atomic_ref<int>(ctl->done).store(1, cuda::std::memory_order_relaxed);
        claim.exit = 1;
        return;
      }
      // The same check as claim_work's, written out: with one helper for both, Jacobi's
      // autonomous variant took 7.11 instead of 6.94 us per iteration at 10^4 non-zeros
      // (H100, session 20), at the same 80 registers.
      if (v.watchdog_ns != 0) {
        const u64 now = global_time_ns();
        const u64 last = atomic_ref<u64>(ctl->last_progress_ns).load(cuda::std::memory_order_relaxed);
        if (now > last && now - last > v.watchdog_ns) {
          if (!take_over()) return;
          watchdog_fire(v, now - last);
          claim.exit = 1;
          return;
        }
      }
    }
    __nanosleep(32);
  }
}

// Thread 0 only: claim a batch, or decide that the block should wait or leave.
// Idle polling uses plain loads; read-modify-writes happen only where there is work,
// so a thousand idle blocks do not slow down the few that have some. On a queue that
// had work left after the block's last claim (`eager_queue`, else -1) it goes straight
// to the RMWs: a claim is then three dependent memory round trips (the flags, the ready
// count, the head), not five, which a block that runs one large task per claim pays for
// every task. Only there: an eager claim that finds nothing costs two RMWs, and its
// hand-back makes the count dip for the others (on the last queue of any successful
// claim, the generic eleven_types program took 10% longer on an H100).
//
// Deep claims: where the last claim left at least 8 batches per block of the grid in the
// queue, the eager claim takes 2 batches, from 16 on 4 (`eager_rounds`); the main loop
// runs them one after another without a claim in between (LocalSlot::staged_*), and the
// counts stay owed until the last. A claim costs a block several dependent round trips
// (flags, ready count, head, items) and a batch's end a fence: with one 256-thread task
// per claim, a Jacobi iteration of 13,184 row tasks kept a block about 4.5 us between
// two 7.4 us tasks (H200, session 16). Only from a queue that holds several batches for
// every block: at the end of a wave, a block holding tasks that others could run makes
// the wave longer (with 2 and 4 batches from 2 and 4 per block on, Jacobi's autonomous
// variant at 2448 tasks per iteration took 18% longer).
template <class V>
__device__ Claim claim_work(const V& v, unsigned round, int eager_queue, unsigned eager_rounds) {
  using P = typename V::Program;
  using C = Config<P>;
  constexpr auto phase_begin = P::phase_begin;
  Claim c;
  RunControl* ctl = v.control;
  // Both flags, and (when the block is not claiming eagerly, which skips that load) the
  // ready count of the first phaseless queue this round visits, in one round trip: no
  // branch on memory between the loads. An idle poll of a phaseless program is then one
  // round trip, and the claim of a fan-out's task one fewer (Jacobi's autonomous
  // variant; docs/jacobi.md). Read on eager claims too, this load cost trivial tasks of
  // 32 threads 14% of their throughput (H200): it lands on the line the claims update.
  // Passed on as a value with a sentinel: as a pointer, it took the Jacobi autonomous
  // megakernel from 80 to 84 registers (2 blocks of 256 threads per SM instead of 3).
  long long first_ready = kReadyNotRead;
  if constexpr (P::phaseless_count > 0) {
    if (eager_queue < 0) {
      const std::size_t q = (blockIdx.x + round) % P::phaseless_count;
      first_ready = atomic_ref<long long>(v.queues[q].counters->ready).load(cuda::std::memory_order_relaxed);
    }
  }
  const int abort_flag = atomic_ref<int>(ctl->abort).load(cuda::std::memory_order_relaxed);
  const int done_flag = atomic_ref<int>(ctl->done).load(cuda::std::memory_order_relaxed);
  if (abort_flag != 0 || done_flag != 0) {
    c.exit = 1;
    return c;
  }
  auto try_range = [&](std::size_t begin, std::size_t end, long long seen) {
    const std::size_t n = end - begin;
    for (std::size_t k = 0; k < n && c.count == 0; ++k) {
      const std::size_t q = begin + (blockIdx.x + round + k) % n;
      dispatch_queue<P>(q, [&]<std::size_t Q>() {
        using T = typename P::template type_at<Q>;
        constexpr unsigned batch = C::template batch<T>;
        const bool eager = static_cast<int>(Q) == eager_queue;
        long long left = 0;
        c.count = queue_claim(v.queues[Q], batch * (eager ? eager_rounds : 1u), &c.first, eager, &left,
                              k == 0 ? seen : kReadyNotRead);
        c.more = left > 0 ? 1 : 0;
        const unsigned deep = left >= (1ll << 31) ? ~0u : left > 0 ? static_cast<unsigned>(left) : 0u;
        const unsigned wave = gridDim.x * batch;  // a batch for every block
        c.rounds = deep >= 16 * wave ? 4u : deep >= 8 * wave ? 2u : 1u;
        c.batch = batch;
        c.queue = static_cast<int>(Q);
      });
    }
  };
  if constexpr (P::phaseless_count > 0) {
    try_range(0, P::phaseless_count, first_ready);
    if (c.count > 0) return c;
  }
  atomic_ref<unsigned long long> word(ctl->phase_word);
  const int phase = phase_of_word(word.load(cuda::std::memory_order_acquire));
  if constexpr (P::phase_count > 0) {
    const bool eager_here = phase >= 0 && eager_queue >= static_cast<int>(phase_begin[phase]) &&
                            eager_queue < static_cast<int>(phase_begin[phase + 1]);
    if (phase >= 0 && (eager_here || phase_has_ready_work(v, phase))) {
      // Register the claim and read the phase in one atomic: a switch cannot slip in
      // between, because its CAS needs the token count to be zero.
      const unsigned long long seen = word.fetch_add(kClaimToken, cuda::std::memory_order_acquire);
      if (phase_of_word(seen) == phase) try_range(phase_begin[phase], phase_begin[phase + 1], kReadyNotRead);
      word.fetch_sub(kClaimToken, cuda::std::memory_order_release);
      if (c.count > 0) return c;
    }
  }
  if (atomic_ref<long long>(ctl->active).load(cuda::std::memory_order_acquire) == 0) {
    atomic_ref<int>(ctl->done).store(1, cuda::std::memory_order_relaxed);
    c.exit = 1;
    return c;
  }
  if constexpr (waiting_claims<P>) return waiting_claim(v);
  if constexpr (P::phase_count > 0) {
    if (phase >= 0 && atomic_ref<long long>(v.phase_pending[phase]).load(cuda::std::memory_order_acquire) == 0) {
      switch_phase(v, phase);
      return c;
    }
  }
  if (v.watchdog_ns != 0) {
    const unsigned long long now = global_time_ns();
    const unsigned long long last =
        atomic_ref<unsigned long long>(ctl->last_progress_ns).load(cuda::std::memory_order_relaxed);
    if (now > last && now - last > v.watchdog_ns) {
      watchdog_fire(v, now - last);
      c.exit = 1;
      return c;
    }
  }
  c.idle = 1;
  return c;
}

// One task in shared memory (SlotRef in runtime/device_view.cuh).
template <class P>
struct TaskSlot {
  int full;
  int queue;
  std::uint32_t wait_slot;
  alignas(16) unsigned char item[P::max_item_bytes];

  __device__ SlotRef ref() { return SlotRef{&full, &queue, item, &wait_slot}; }
};

// Waiting-storage slots whose tasks the block has taken over (from its continuation
// slots) but not yet given back. Giving a slot back must follow the read of its item
// in a release, and a device-scope fence costs about as much as the rest of a dependency
// hop: the block gives its slots back after one fence, at the end of a batch or chain,
// or when the list is full. The storage has room for the slots so kept
// (waiting_slot_reserve in runtime/device_view.cuh; DeviceView::freed_per_block each).
inline constexpr unsigned kMaxFreedSlots = 32;
struct FreedSlots {
  unsigned count;
  std::uint32_t slot[kMaxFreedSlots];
};

// Thread 0, after a device-scope release fence that follows the reads of the listed
// slots' items (in program order or through a block barrier).
template <class V>
__device__ void release_freed_slots(const V& v, FreedSlots& freed) {
  for (unsigned i = 0; i < freed.count; ++i)
    atomic_ref<std::uint32_t>(v.wait_state[freed.slot[i]]).store(0u, cuda::std::memory_order_relaxed);
  freed.count = 0;
}

// The block's two slots (see Continuation in runtime/device_view.cuh), and what the block
// has not yet applied to the run-wide counters: its finished tasks per queue, and its
// change to RunControl::active (tasks put into a slot minus tasks finished). Between two
// applications the block's share of `active` stays what it was at the first, which
// counted every task then alive in the block; so while the block has a task, its share
// is at least 1, and the run cannot look finished.
template <class P>
struct LocalSlot {
  TaskSlot<P> next;
  TaskSlot<P> held;
  unsigned owed[P::type_count];
  int active_delta;
  unsigned streak;   // batches since the counts were last applied
  FreedSlots freed;  // waiting-storage slots not yet given back
  int go;            // continue_chain: thread 0's decision for the task's threads
  unsigned eager_rounds;   // batches the next eager claim takes (claim_work)
  // The batches of the block's last deep claim still to run: stage positions
  // [staged_next, staged_end), staged_batch at a time, of queue staged_queue. They go
  // through the main loop, one batch per round, rather than through a loop in run_batch:
  // that loop took the Jacobi autonomous megakernel from 80 to 84-88 registers (2 blocks
  // of 256 threads per SM instead of 3), and 97 as a function of its own.
  unsigned staged_next;
  unsigned staged_end;
  unsigned staged_batch;
  int staged_queue;
  // Waiting claims: 1 + the position whose slot the block frees after its task (0: none;
  // see waiting_claim and free_held_position in runtime/device_view.cuh).
  unsigned long long claimed;
};

// Thread 0, after a batch, no task running: frees the slot of the position that the
// block's waiting claim took, unless a producer of the task did already. `fenced`: the
// batch's release fence came just before (a relaxed store is then enough).
template <class V>
__device__ void free_claimed_slot(const V& v, LocalSlot<typename V::Program>& local, bool fenced) {
  if constexpr (waiting_claims<typename V::Program>) {
    if (local.claimed == 0) return;
    const QueueView& q = v.queues[0];
    const unsigned long long pos = local.claimed - 1;
    atomic_ref<unsigned long long> seq(q.seq[pos & (q.capacity - 1)]);
    if (fenced)
      seq.store(pos + q.capacity, cuda::std::memory_order_relaxed);
    else
      seq.store(pos + q.capacity, cuda::std::memory_order_release);
    local.claimed = 0;
  }
}

// Thread 0, taking over a task from a continuation slot: its waiting-storage slot (if it
// came from there) goes on the block's list; a full list is given back first.
template <class V>
__device__ void give_back_later(const V& v, LocalSlot<typename V::Program>& local, std::uint32_t wait_slot) {
  if (wait_slot == kNoSlot) return;
  if (v.freed_per_block == 0) {
    release_slot(v.wait_state, wait_slot);
    return;
  }
  if (local.freed.count == v.freed_per_block) {
    cuda::atomic_thread_fence(cuda::std::memory_order_release, cuda::thread_scope_device);
    release_freed_slots(v, local.freed);
  }
  local.freed.slot[local.freed.count++] = wait_slot;
}

// A held task of another phase may be kept only where the block that retires a phase's
// last batch can tell that nothing else can still happen in it: programs with several
// phases and no phaseless types (see switch_to_held).
template <class P>
inline constexpr bool holds_any_phase = P::phase_count > 1 && P::phaseless_count == 0;

// Thread 0, after a batch of `phase`, holding a task of phase `held`, with `finished`
// tasks of `phase` not yet counted out of phase_pending. With no phaseless types only
// running tasks create work; if phase_pending[phase] == finished, no task of the phase
// is left anywhere, so nothing but this block can change the counters now: the next
// phase with work is known exactly, and the block installs it itself before it lowers
// phase_pending (so that no polling block starts the ordinary switch meanwhile), with one
// CAS that fails while another block holds a claim token. True when `held` is now the
// current phase; otherwise the caller takes the ordinary path.
template <class V>
__device__ bool switch_to_held(const V& v, int phase, int held, long long finished) {
  using P = typename V::Program;
  constexpr int phases = static_cast<int>(P::phase_count);
  long long pending[phases];
#pragma unroll
  for (int p = 0; p < phases; ++p)
    pending[p] = atomic_ref<long long>(v.phase_pending[p]).load(cuda::std::memory_order_acquire);
  if (pending[phase] != finished) return false;  // other tasks of the phase remain
  int next = -1;
#pragma unroll
  for (int k = phases - 1; k >= 1; --k)
    if (pending[(phase + k) % phases] > 0) next = (phase + k) % phases;
  // Another phase has work first, or the order needs checking (switch_phase raises
  // phase_order for a non-cyclic program): the ordinary path decides.
  if (next != held || (next < phase && !v.cyclic)) return false;
  unsigned long long expected = phase_word(phase);
  if (!atomic_ref<unsigned long long>(v.control->phase_word)
           .compare_exchange_strong(expected, phase_word(held), cuda::std::memory_order_acq_rel))
    return false;
  atomic_ref<unsigned long long>(v.control->phase_switches).fetch_add(1, cuda::std::memory_order_relaxed);
  return true;
}

// Thread 0, after the closing barrier of a batch of n tasks of queue `queue`. While the
// block goes on with a task of the same phase from its `next` slot, the finished tasks
// stay owed and the active delta unapplied: the run-wide counters over-count meanwhile
// (the phase cannot end, the run cannot look finished), and a chain of continuations
// pays no fence and no global atomic per task. Otherwise all of it — of one phase, or
// phaseless — is applied (retire_batch's order: one release fence, then the updates),
// and a held task of another phase either becomes the next task (switch_to_held) or
// goes to its queue. Not a template on the queue: the kernel holds one copy of this.
template <class V>
__device__ void finish_batch(const V& v, int queue, unsigned n, LocalSlot<typename V::Program>& local) {
  using P = typename V::Program;
  constexpr auto phase_of_queue = P::phase_of_queue;  // a local copy: indexable at run time
  const int phase = phase_of_queue[queue];
  local.owed[queue] += n;
  local.active_delta -= static_cast<int>(n);
  // A continuation of the same phase (or phaseless after phaseless) runs next, or the
  // next batch of a deep claim of this phase. After a phased batch, a phaseless
  // continuation runs only once the phase's counts are out: the phase may end meanwhile,
  // as it would have with the task in a queue.
  if ((local.next.full && phase_of_queue[local.next.queue] == phase) ||
      (local.staged_next < local.staged_end && phase_of_queue[local.staged_queue] == phase)) {
    free_claimed_slot(v, local, false);
    if ((++local.streak & 63) == 0)  // progress for the watchdog
      atomic_ref<unsigned long long>(v.control->last_progress_ns).store(global_time_ns(), cuda::std::memory_order_relaxed);
    return;
  }

  local.streak = 0;
  cuda::atomic_thread_fence(cuda::std::memory_order_release, cuda::thread_scope_device);
  free_claimed_slot(v, local, true);
  release_freed_slots(v, local.freed);
  // Everything owed is of this batch's phase (or phaseless): only its queues can have
  // counts (a program of many phases would otherwise pay a loop over all its queues).
  constexpr auto phase_begin = P::phase_begin;
  const int first = phase >= 0 ? static_cast<int>(phase_begin[phase]) : 0;
  const int last = phase >= 0 ? static_cast<int>(phase_begin[phase + 1]) : static_cast<int>(P::phaseless_count);
  long long total = 0;
  for (int q = first; q < last; ++q) {
    const unsigned k = local.owed[q];
    if (k == 0) continue;
    local.owed[q] = 0;
    total += k;
    atomic_ref<unsigned long long>(v.queues[q].counters->executed).fetch_add(k, cuda::std::memory_order_relaxed);
  }
  bool switched = false;
  if constexpr (holds_any_phase<P>) {
    // (`next` is empty here: with no phaseless types it only holds tasks of `phase`.)
    if (local.held.full) switched = switch_to_held(v, phase, phase_of_queue[local.held.queue], total);
  }
  if (phase >= 0) atomic_ref<long long>(v.phase_pending[phase]).fetch_sub(total, cuda::std::memory_order_relaxed);
  if (local.active_delta != 0)
    atomic_ref<long long>(v.control->active).fetch_add(local.active_delta, cuda::std::memory_order_relaxed);
  local.active_delta = 0;
  atomic_ref<unsigned long long>(v.control->last_progress_ns).store(global_time_ns(), cuda::std::memory_order_relaxed);
  if (!local.held.full) return;
  if (switched) {
    local.next.queue = local.held.queue;
    local.next.wait_slot = local.held.wait_slot;
    memcpy(local.next.item, local.held.item, sizeof local.held.item);
    local.next.full = 1;
  } else {
    give_back_later(v, local, local.held.wait_slot);
    dispatch_queue<P>(local.held.queue, [&]<std::size_t R>() {
      using Item = typename P::template type_at<R>::Item;
      const PushResult r = queue_push(v.queues[R], *reinterpret_cast<const Item*>(local.held.item), &v.control->abort);
      if (r == PushResult::overflow) raise_error(v, ErrorCode::queue_overflow, static_cast<int>(R));
    });
  }
  local.held.full = 0;
}

// Thread 0, after the n-th task of a chain (see continue_chain): takes the task in the
// `next` slot into items[0] when it is of queue Q. The abort flag is polled every 64th
// task, progress reported every 64th.
template <std::size_t Q, class V>
__device__ bool take_next(const V& v, typename V::Program::template type_at<Q>::Item* items, unsigned n,
                          LocalSlot<typename V::Program>& local) {
  using Item = typename V::Program::template type_at<Q>::Item;
  if (!local.next.full || local.next.queue != static_cast<int>(Q) || ((n & 63) == 0 && aborted(v))) return false;
  items[0] = *reinterpret_cast<const Item*>(local.next.item);
  local.next.full = 0;
  give_back_later(v, local, local.next.wait_slot);
  if ((++local.streak & 63) == 0)
    atomic_ref<unsigned long long>(v.control->last_progress_ns).store(global_time_ns(), cuda::std::memory_order_relaxed);
  return true;
}

// The threads of a batch's only task, after its n-th task: true when the task it left in
// the block's `next` slot is of the same queue — the same type, so the same threads,
// barrier and shared memory — and runs now, from items[0], without the scheduler's loop
// (no block barrier, no claim, no staging). A chain of dependent tasks of one type runs
// this way; its counts stay owed as in any continuation chain (finish_batch). Called
// only for tasks of at most a warp (run_batch).
template <std::size_t Q, class V>
__device__ bool continue_chain(const V& v, typename V::Program::template type_at<Q>::Item* items, unsigned n,
                               LocalSlot<typename V::Program>& local) {
  using P = typename V::Program;
  using T = typename P::template type_at<Q>;
  if constexpr (T::threads == 1) {
    return take_next<Q>(v, items, n, local);  // thread 0 is the task
  } else {
    const auto barrier = sched::task_barrier<T::threads, Config<P>::block_threads>(0);
    barrier.sync();  // what the task left in the slot is seen by all of its threads
    if (threadIdx.x == 0) local.go = take_next<Q>(v, items, n, local);
    barrier.sync();  // every thread has the decision and the item
    return local.go != 0;
  }
}

// All threads: stage the claimed items in shared memory and execute them. Returns (to
// thread 0, which accounts for them afterwards in finish_batch) the tasks run.
template <std::size_t Q, bool Trace, class V>
__device__ unsigned run_batch(const V& v, Claim& claim, unsigned char* smem, LocalSlot<typename V::Program>& local) {
  using P = typename V::Program;
  using C = Config<P>;
  using T = typename P::template type_at<Q>;
  using Item = typename T::Item;
  Item* items = reinterpret_cast<Item*>(smem);
  __shared__ int s_aborted;
  if (threadIdx.x == 0) s_aborted = 0;
  if (claim.local) {
    if (threadIdx.x == 0) {
      items[0] = *reinterpret_cast<const Item*>(local.next.item);
      local.next.full = 0;  // free again for the tasks of this batch
      give_back_later(v, local, local.next.wait_slot);
    }
  } else if (claim.take > 0) {
    block_barrier();
    sched::stage_claimed<Q>(v, claim.first, claim.take, items, &s_aborted);
  }
  block_barrier();

  // A task of another phase is held only by a batch of one task: that is the task that
  // may end its phase (a check, a ping-pong); in a batch of many, the held task would
  // mostly go to its queue from thread 0 after the batch instead of from its creator.
  const bool hold = holds_any_phase<P> && claim.count == 1;
  const Continuation cont{local.next.ref(), hold ? local.held.ref() : SlotRef{}, &local.active_delta,
                          P::phase_of_queue[Q], waiting_claims<P> ? &local.claimed : nullptr};
  sched::execute_batch<Q, Trace, C::block_threads>(v, items + claim.offset, claim.count, smem + C::stage_bytes,
                                                   s_aborted != 0, &cont);
  // A batch of one task of at most a warp goes on with the continuations of its type
  // (continue_chain). A second copy of the task's code rather than a loop around the
  // first: measured on an H100, the loop made the phase switch 7% and trivial tasks 9%
  // slower, and the hop 6%. Not for larger tasks: their second copy costs registers (a
  // Jacobi megakernel of 256-thread tasks went from 80 to 88) and their chain check two
  // barriers of many warps; with chains for every size, the generic eleven_types program
  // took 1.005 ms with phases and 0.809 ms with dependencies, with warp-sized ones 0.899
  // and 0.776 ms (0.878 and 0.761 ms before chains).
  unsigned ran = claim.count;
  if constexpr (T::threads <= 32) {
    if (claim.count == 1 && s_aborted == 0 && threadIdx.x < T::threads) {
      while (continue_chain<Q>(v, items, ran, local)) {
        ++ran;
        sched::execute_task<Q, Trace, C::block_threads>(v, items[0], 0, smem + C::stage_bytes, &cont);
      }
    }
  }
  block_barrier();
  // A take ended without its item (aborted, or the run ended: see stage_claimed): no task
  // of the batch ran, none is counted (thread 0's count is the one used), and the rest of
  // a deep claim is dropped.
  if (threadIdx.x == 0 && s_aborted != 0) {
    local.staged_end = 0;
    ran = 0;
  }
  return ran;
}

// All threads of the last block to leave: copy the run-wide words into the mapped
// readback, so that the host needs no copy call after the run (each call into the CUDA
// runtime costs the host microseconds, and a small run's wall time is mostly those calls).
// Loads bypass L1: the words were last written by other blocks. Out of line: inlined at
// the kernel's end, it took the Jacobi autonomous megakernel from 80 to 81 registers (2
// blocks of 256 threads per SM instead of 3) and stages-deps to 86.
template <class V>
__device__ __noinline__ void write_back(const V& v) {
  if (v.readback == nullptr) return;
  const auto* src = reinterpret_cast<const uint4*>(v.control);
  auto* dst = static_cast<uint4*>(v.readback);
  for (std::uint32_t i = threadIdx.x; i < v.readback_bytes / sizeof(uint4); i += blockDim.x) dst[i] = __ldcg(src + i);
  __threadfence_system();
}

// The view stays in the kernel's parameter space (__grid_constant__, as in every kernel of
// the schedulers): the loop passes it by reference and indexes its queues at run time,
// for which the compiler otherwise copies the whole view (480-536 bytes for the Jacobi
// programs) to each thread's stack, and every read of it becomes a local-memory load.
// On an H100 this alone took PCG IC(0) at Poisson 3D 100^3 from 40.7 to 37.6 ms and
// Jacobi's autonomous variant at 10^7 non-zeros from 219 to 202 us per iteration.
template <class V, bool Trace>
__global__ void __launch_bounds__(Config<typename V::Program>::block_threads, Config<typename V::Program>::min_blocks)
    megakernel(const __grid_constant__ V v) {
  using P = typename V::Program;
  extern __shared__ __align__(16) unsigned char smem[];
  __shared__ Claim claim;
  __shared__ LocalSlot<P> local;
  if (threadIdx.x == 0) {
    local.next.full = 0;
    local.held.full = 0;
    for (std::size_t q = 0; q < P::type_count; ++q) local.owed[q] = 0;
    local.active_delta = 0;
    local.streak = 0;
    local.freed.count = 0;
    local.eager_rounds = 1;
    local.staged_next = 0;
    local.staged_end = 0;
    local.claimed = 0;
    // The run's own clock (RunOptions::event_timer); the watchdog's started in prepare_run.
    if (blockIdx.x == 0)
      atomic_ref<unsigned long long>(v.control->start_ns).store(global_time_ns(), cuda::std::memory_order_relaxed);
  }
  unsigned backoff_ns = 0;
  int eager_queue = -1;  // thread 0: the queue that had work left at the last claim (claim_work)
  for (unsigned round = 0;; ++round) {
    if (threadIdx.x == 0) {
      // Continuations and the rest of a deep claim never visit claim_work: poll the abort
      // flag every 16th round. (They set only the fields that run_batch and the loop read.)
      if (local.next.full && ((round & 15) != 0 || !aborted(v))) {
        claim.queue = local.next.queue;  // run the continuation first: no queue trip
        claim.count = 1;
        claim.exit = 0;
        claim.idle = 0;
        claim.local = 1;
        claim.offset = 0;
      } else if (local.staged_next < local.staged_end && ((round & 15) != 0 || !aborted(v))) {
        claim.queue = local.staged_queue;  // the next batch of the deep claim, staged already
        claim.count = min(local.staged_batch, local.staged_end - local.staged_next);
        claim.exit = 0;
        claim.idle = 0;
        claim.local = 0;
        claim.take = 0;
        claim.offset = local.staged_next;
        local.staged_next += claim.count;
      } else {
        claim = claim_work(v, round, eager_queue, local.eager_rounds);
        eager_queue = claim.count > 0 && claim.more ? claim.queue : -1;
        local.eager_rounds = claim.rounds;
        claim.take = claim.staged ? 0 : claim.count;
        if (claim.count > claim.batch) {  // a deep claim: its first batch now, the rest later
          local.staged_queue = claim.queue;
          local.staged_batch = claim.batch;
          local.staged_next = claim.batch;
          local.staged_end = claim.count;
          claim.count = claim.batch;
        }
      }
      // Exponential back-off while idle: with hundreds of blocks polling, one of them
      // still wakes within nanoseconds of new work, but the control words stay cool.
      // Capped at 512 ns: a fan-out of 20 tasks needs 20 blocks awake, and with the
      // polled words on blocks of their own (kCounterSpacing) the faster polls no longer
      // delay the claims (2048 ns before; Jacobi at 10^4 non-zeros took 4% longer per
      // iteration, H200, session 18).
      if (claim.idle) {
        backoff_ns = backoff_ns == 0 ? 32 : min(backoff_ns * 2, 512u);
        __nanosleep(backoff_ns);
      } else {
        backoff_ns = 0;
      }
    }
    block_barrier();
    if constexpr (waiting_claims<P>) {
      if (claim.waiting) {  // every thread reads it before the barrier below; thread 0 clears it after
        await_claim(v, claim, local.claimed, smem);
        block_barrier();
        if (threadIdx.x == 0) claim.waiting = 0;
      }
    }
    if (claim.exit) break;
    if (claim.count > 0) {
      unsigned ran = 0;
      dispatch_queue<P>(claim.queue, [&]<std::size_t Q>() { ran = run_batch<Q, Trace>(v, claim, smem, local); });
      if (threadIdx.x == 0) finish_batch(v, claim.queue, ran, local);
    }
    block_barrier();
  }
  __shared__ int s_last;
  if (threadIdx.x == 0) {
    // An aborted run may leave here in a chain of continuations, with slots still listed.
    cuda::atomic_thread_fence(cuda::std::memory_order_release, cuda::thread_scope_device);
    release_freed_slots(v, local.freed);
    // Every block's updates come before its count here.
    const int left = atomic_ref<int>(v.control->exited_blocks).fetch_add(1, cuda::std::memory_order_acq_rel);
    s_last = left + 1 == static_cast<int>(gridDim.x) ? 1 : 0;
    if (s_last != 0)
      atomic_ref<unsigned long long>(v.control->end_ns).store(global_time_ns(), cuda::std::memory_order_relaxed);
  }
  block_barrier();
  if (s_last != 0) write_back(v);
}

// The blocks a run of rt launches: all that are resident at once on the current device
// (blocks may wait on each other), at most RunOptions::blocks_per_sm per SM. A program
// can size its work to it before the run.
template <class R>
int resident_blocks(const R& rt) {
  using V = typename R::View;
  using C = Config<typename R::Program>;
  auto kernel = sched::by_trace(rt.options().trace, [](auto traced) { return megakernel<V, decltype(traced)::value>; });
  if (C::shared_bytes > 48 * 1024)
    APIARY_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(C::shared_bytes)));
  int per_sm = 0;
  APIARY_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, C::block_threads, C::shared_bytes));
  if (per_sm == 0)
    throw RunError("megakernel: a block does not fit on a multiprocessor (too much shared memory or registers)");
  if (rt.options().blocks_per_sm > 0) per_sm = std::min(per_sm, rt.options().blocks_per_sm);
  return per_sm * multiprocessor_count();
}

template <class R>
RunStats run(R& rt, cudaStream_t stream) {
  using V = typename R::View;
  using C = Config<typename R::Program>;
  auto v = rt.prepare(stream);
  auto kernel = sched::by_trace(rt.options().trace, [](auto traced) { return megakernel<V, decltype(traced)::value>; });
  LaunchResources& res = rt.launch_resources();
  if (res.megakernel_blocks == 0) res.megakernel_blocks = resident_blocks(rt);
  const int blocks = res.megakernel_blocks;
  v.freed_per_block = std::min<std::uint32_t>(kMaxFreedSlots, (v.wait_slots - v.wait_capacity) / blocks);

  // Two event records cost the host about 5 us of a run's wall time (H200, session 43);
  // without them the run's time comes from the device clock (RunOptions::event_timer).
  const bool events = rt.options().event_timer;
  if (events) res.timer().start(stream);
  kernel<<<blocks, C::block_threads, C::shared_bytes, stream>>>(v);
  APIARY_CUDA_CHECK_LAUNCH();
  if (events) res.timer().stop(stream);
  RunStats s = rt.finish(Scheduler::megakernel, stream);
  s.milliseconds = events ? res.timer().elapsed_ms() : rt.device_clock_ms();
  s.blocks = blocks;
  s.threads_per_block = C::block_threads;
  s.launches = 1;
  return s;
}

}  // namespace apiary::megakernel
