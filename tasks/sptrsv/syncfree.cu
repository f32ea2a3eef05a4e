// The synchronization-free sparse triangular solve, CSR "warp per row" form, written
// from the published description (Liu, Li, Hou, Vinter, "A synchronization-free
// algorithm for parallel sparse triangular solves", Euro-Par 2016, and its CSR variants
// that spin on per-row ready flags).
//
// One warp solves one row i at a time:
//   1. its lanes stride over the off-diagonal entries L(i, j), j < i; each lane waits
//      until ready[j] is set, then reads x[j] and accumulates L(i, j) * x[j];
//   2. the lane sums are reduced across the warp;
//   3. lane 0 computes x[i] = (b[i] - sum) / L(i, i), stores it, and then sets ready[i]
//      with a release store.
//
// Memory ordering (the bug several published sync-free codes have): the consumer must
// never see ready[j] == 1 and still read a stale or not yet written x[j]. Here the
// producer's plain store of x[i] is followed, in the same thread, by a RELEASE store of
// ready[i]; the consumer's ACQUIRE load that reads 1 synchronizes with it, so the plain
// load of x[j] that follows it in program order sees the value written before the
// release (PTX memory model: release/acquire at gpu scope; ld.acquire.gpu also keeps
// the later load from being served by a stale L1 line). Without the release the store
// of the flag may become visible before the store of x; without the acquire the load of
// x may be satisfied early or from L1. A volatile flag plus __threadfence() on the
// producer side only is not enough on the consumer side for the same reason. x is not
// marked const or __restrict__ so that its loads never go through the read-only
// (non-coherent) cache path.
//
// Rows are handed out in increasing order through a global ticket (atomicAdd on one
// counter), not by blockIdx. Deadlock freedom: a warp that holds row i waits only on
// rows j < i. Tickets are taken in increasing order, so every row j < i has already
// been taken, by a warp that is running (a warp that took a ticket keeps its residency
// until it has finished that row; blocks that have not been dispatched yet hold no
// ticket). Among the unfinished rows that have been taken, the smallest one has all its
// dependencies finished, so its warp completes it; by induction every taken row
// completes, whatever order the hardware dispatches blocks in and however many blocks
// are resident. (This relies only on resident warps being scheduled eventually, which
// the __nanosleep backoff makes cheap for the spinning ones.) A block-index order
// would not give this: a resident block could wait on a row owned by a block that
// cannot be dispatched until the waiting one exits.
//
// Right-hand sides: one kernel launch per column, each preceded by a cudaMemsetAsync
// that clears the column's ready flags and the ticket (they share one allocation). The
// launches are ordered on the stream, so every column is a complete, independent
// sync-free solve. (A single launch for all columns would save the launch and memset
// per column but needs per-column flags or a generation counter; the baseline keeps the
// published one-vector algorithm.)
#include <cuda/atomic>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"
#include "runtime/device_buffer.hpp"
#include "runtime/portable.hpp"
#include "sparse/reference.hpp"
#include "tasks/sptrsv/baselines.hpp"
#include "tasks/sptrsv/partition.hpp"

namespace apiary::sptrsv {

using sparse::index_t;

namespace detail {

template <class Real>
std::vector<Real> checked_values(const sparse::Csr<double>& lower, const char* what) {
  const std::size_t n = lower.rows < 0 ? 0 : static_cast<std::size_t>(lower.rows);
  if (lower.row_ptr.size() != n + 1 || lower.col.size() != lower.val.size() ||
      lower.row_ptr.front() != 0 || static_cast<std::size_t>(lower.row_ptr.back()) != lower.col.size())
    throw std::invalid_argument(std::string(what) + ": inconsistent CSR arrays");
  require_lower_with_diagonal(lower, what);
  std::vector<Real> values(lower.val.size());
  for (index_t i = 0; i < lower.rows; ++i) {
    const index_t diag = lower.row_end(i) - 1;  // require_lower_with_diagonal: the last entry is (i, i)
    // Every earlier entry must lie strictly left of the diagonal: the sync-free kernel
    // would wait forever on a column >= i (an unsorted row or a duplicate diagonal).
    for (index_t k = lower.row_begin(i); k < diag; ++k) {
      if (lower.col[k] < 0 || lower.col[k] >= i)
        throw std::invalid_argument(std::string(what) + ": row " + std::to_string(i) +
                                    " is not sorted, holds column " + std::to_string(lower.col[k]) +
                                    " before its diagonal");
      values[k] = static_cast<Real>(lower.val[k]);
    }
    values[diag] = static_cast<Real>(lower.val[diag]);
    if (values[diag] == Real(0)) throw sparse::SingularError(i, false);
  }
  return values;
}

template std::vector<float> checked_values<float>(const sparse::Csr<double>&, const char*);
template std::vector<double> checked_values<double>(const sparse::Csr<double>&, const char*);

}  // namespace detail

namespace {

constexpr int kWarp = 32;
constexpr unsigned kFullMask = 0xffffffffu;
constexpr int kBlockThreads = SyncFreeSolver<double>::block_threads;
static_assert(kBlockThreads % kWarp == 0, "whole warps only: the warp collectives use the full mask");

// Spins until *flag != 0, with acquire order on the load that sees it set. A few tight
// polls first (the producer is often just finishing), then __nanosleep with doubling
// backoff, capped low because every nanosecond slept is added to the critical path.
__device__ __forceinline__ void wait_ready(unsigned* flag) {
  apiary::atomic_ref<unsigned> ready(*flag);
  int polls = 0;
  unsigned sleep_ns = 32;
  while (ready.load(cuda::memory_order_acquire) == 0u) {
    if (++polls > 8) {
      __nanosleep(sleep_ns);
      sleep_ns = sleep_ns < 512u ? 2u * sleep_ns : 512u;
    }
  }
}

// ready: n flags (0 = not yet solved), then the ticket; all zero at launch.
template <class Real>
__global__ void __launch_bounds__(kBlockThreads)
    syncfree_kernel(index_t n, const index_t* __restrict__ row_ptr, const index_t* __restrict__ col,
                    const Real* __restrict__ val, const Real* __restrict__ b, Real* x,
                    unsigned* ready) {
  const int lane = static_cast<int>(threadIdx.x % kWarp);
  // The ticket is unsigned: each warp takes at most one ticket >= n before it leaves,
  // so it never exceeds n + (warps in the grid) < 2^32 for any n < 2^31.
  apiary::atomic_ref<unsigned> ticket(ready[n]);
  for (;;) {
    unsigned taken = 0;
    // Relaxed is enough: the ticket only distributes rows; the data a row needs is
    // ordered by the ready flags.
    if (lane == 0) taken = ticket.fetch_add(1u, cuda::memory_order_relaxed);
    taken = __shfl_sync(kFullMask, taken, 0);
    if (taken >= static_cast<unsigned>(n)) return;  // uniform across the warp
    const index_t row = static_cast<index_t>(taken);
    const index_t diag = row_ptr[row + 1] - 1;  // the diagonal is the row's last entry
    Real sum = 0;
    // 64-bit position: k + 32 must not overflow when nnz is close to 2^31.
    for (std::int64_t k = static_cast<std::int64_t>(row_ptr[row]) + lane; k < diag; k += kWarp) {
      const index_t j = col[k];
      wait_ready(&ready[j]);  // acquire: x[j] below is the value stored before ready[j] was set
      sum += val[k] * x[j];
    }
    for (int offset = kWarp / 2; offset > 0; offset /= 2) sum += __shfl_down_sync(kFullMask, sum, offset);
    if (lane == 0) {
      x[row] = (b[row] - sum) / val[diag];
      // Release: the store of x[row] above becomes visible to any thread whose acquire
      // load reads this 1 (see the comment at the top of the file).
      apiary::atomic_ref<unsigned>(ready[row]).store(1u, cuda::memory_order_release);
    }
  }
}

double elapsed_ms(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - since).count();
}

}  // namespace

template <class Real>
struct SyncFreeSolver<Real>::Impl {
  index_t n = 0;
  DeviceBuffer<index_t> row_ptr;
  DeviceBuffer<index_t> col;
  DeviceBuffer<Real> val;
  DeviceBuffer<unsigned> ready;  // n flags + the ticket, cleared before every column
  int grid = 0;
  double analysis_ms = 0;
};

template <class Real>
SyncFreeSolver<Real>::SyncFreeSolver(const sparse::Csr<double>& lower) : impl_(std::make_unique<Impl>()) {
  const auto start = std::chrono::steady_clock::now();
  const std::vector<Real> values = detail::checked_values<Real>(lower, "SyncFreeSolver");
  Impl& s = *impl_;
  s.n = lower.rows;
  if (s.n > 0) {
    s.row_ptr = DeviceBuffer<index_t>(std::span<const index_t>(lower.row_ptr));
    s.col = DeviceBuffer<index_t>(std::span<const index_t>(lower.col));
    s.val = DeviceBuffer<Real>(std::span<const Real>(values));
    s.ready = DeviceBuffer<unsigned>(static_cast<std::size_t>(s.n) + 1);
    // Exactly as many blocks as can be resident at once: more would only take tickets
    // after the resident ones (correct, see above, but useless); fewer leaves SMs idle.
    const int sms = multiprocessor_count();
    int per_sm = 0;
    APIARY_CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, syncfree_kernel<Real>, kBlockThreads, 0));
    const std::int64_t warps_per_block = kBlockThreads / kWarp;
    const std::int64_t wanted = (static_cast<std::int64_t>(s.n) + warps_per_block - 1) / warps_per_block;
    const std::int64_t resident = static_cast<std::int64_t>(std::max(sms, 1)) * std::max(per_sm, 1);
    s.grid = static_cast<int>(std::min(wanted, resident));
  }
  s.analysis_ms = elapsed_ms(start);
}

template <class Real>
SyncFreeSolver<Real>::SyncFreeSolver(SyncFreeSolver&&) noexcept = default;
template <class Real>
SyncFreeSolver<Real>& SyncFreeSolver<Real>::operator=(SyncFreeSolver&&) noexcept = default;
template <class Real>
SyncFreeSolver<Real>::~SyncFreeSolver() = default;

template <class Real>
void SyncFreeSolver<Real>::solve(const Real* d_b, Real* d_x, int rhs, cudaStream_t stream) {
  if (!impl_) throw std::logic_error("SyncFreeSolver::solve: the solver was moved from");
  if (rhs < 0) throw std::invalid_argument("SyncFreeSolver::solve: rhs must be >= 0, got " + std::to_string(rhs));
  Impl& s = *impl_;
  if (s.n == 0 || rhs == 0) return;
  if (d_b == nullptr || d_x == nullptr) throw std::invalid_argument("SyncFreeSolver::solve: null vector");
  for (int c = 0; c < rhs; ++c) {
    const std::size_t offset = static_cast<std::size_t>(c) * static_cast<std::size_t>(s.n);
    s.ready.fill_zero(stream);
    syncfree_kernel<Real><<<s.grid, kBlockThreads, 0, stream>>>(s.n, s.row_ptr.data(), s.col.data(), s.val.data(),
                                                                d_b + offset, d_x + offset, s.ready.data());
    APIARY_CUDA_CHECK_LAUNCH();
  }
}

template <class Real>
double SyncFreeSolver<Real>::analysis_ms() const {
  if (!impl_) throw std::logic_error("SyncFreeSolver: the solver was moved from");
  return impl_->analysis_ms;
}

template <class Real>
index_t SyncFreeSolver<Real>::rows() const {
  if (!impl_) throw std::logic_error("SyncFreeSolver: the solver was moved from");
  return impl_->n;
}

template <class Real>
int SyncFreeSolver<Real>::grid_blocks() const {
  if (!impl_) throw std::logic_error("SyncFreeSolver: the solver was moved from");
  return impl_->grid;
}

template class SyncFreeSolver<float>;
template class SyncFreeSolver<double>;

}  // namespace apiary::sptrsv
