// JacobiSolver: host preparation, uploads, and one solve per call under any variant.
#include "tasks/jacobi/jacobi.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "runtime/cuda_check.hpp"
#include "runtime/errors.hpp"
#include "tasks/jacobi/workspace.hpp"

namespace apiary::jacobi {

std::string_view to_string(Variant v) {
  switch (v) {
    case Variant::kernels:
      return "kernels";
    case Variant::graph:
      return "graph";
    case Variant::stages_phases:
      return "stages-phases";
    case Variant::stages_deps:
      return "stages-deps";
    case Variant::autonomous:
      return "autonomous";
    case Variant::checkpoints:
      return "checkpoints";
  }
  return "unknown";
}

std::optional<Variant> parse_variant(std::string_view text) {
  for (Variant v : kAllVariants)
    if (to_string(v) == text) return v;
  return std::nullopt;
}

bool uses_scheduler(Variant v) { return v != Variant::kernels && v != Variant::graph; }

namespace detail {

namespace {

// A history of every iterate is a test aid: refuse sizes that would not fit anyway.
constexpr std::size_t kMaxHistoryDoubles = std::size_t{1} << 28;  // 2 GiB

// Versions of x and of the per-chunk changes the device keeps. Every variant needs two
// (by parity). The checkpoints variant needs every change of a window, and the iterates
// x(first + 1) .. x(last + 1) of a window, any of which may be the answer: `interval`
// of them (the window's own x(first) is no longer needed once its iteration ran, and
// the symmetric dependencies make two versions enough for the reads). One ring for all
// variants of a solver: the position in the ring does not change the arithmetic.
int x_ring_of(const JacobiOptions& o) { return std::max(2, o.checkpoint_interval); }
int partial_ring_of(const JacobiOptions& o) { return std::max(2, o.checkpoint_interval); }

}  // namespace

Workspace::Workspace(const JacobiProblem& p, const Partition& part, std::span<const double> rhs, const JacobiOptions& o)
    : row_ptr(std::span<const index_t>(p.row_ptr)),
      col(std::max<std::size_t>(p.nnz_off(), 1)),
      val(std::max<std::size_t>(p.nnz_off(), 1)),
      inv_diag(std::span<const double>(p.inv_diag)),
      b(rhs),
      x(static_cast<std::size_t>(p.n) * static_cast<std::size_t>(x_ring_of(o))),
      partial(static_cast<std::size_t>(partial_ring_of(o)) * part.chunks.size()),
      piece_sum(part.chunks.size()),
      changes(static_cast<std::size_t>(std::max(o.max_iterations, 1))),
      chunks(std::span<const Chunk>(part.chunks)),
      piece_arrivals(part.chunks.size()),
      arrivals(static_cast<std::size_t>(std::max(o.max_iterations, 1))),
      reserved(2),
      state(1),
      deps(2 * part.chunks.size() + 1),
      iteration(1) {
  col.copy_from(p.col);
  val.copy_from(p.val);
  if (o.keep_history) history = DeviceBuffer<double>(static_cast<std::size_t>(p.n) * o.max_iterations);
  data.n = p.n;
  data.chunk_count = static_cast<int>(part.chunks.size());
  data.max_iterations = o.max_iterations;
  data.tolerance = o.tolerance;
  data.row_ptr = row_ptr.data();
  data.col = col.data();
  data.val = val.data();
  data.inv_diag = inv_diag.data();
  data.b = b.data();
  data.chunks = chunks.data();
  data.x = x.data();
  data.x_ring = x_ring_of(o);
  data.partial_ring = partial_ring_of(o);
  data.partial = partial.data();
  data.piece_sum = piece_sum.data();
  data.piece_arrivals = piece_arrivals.data();
  data.changes = changes.data();
  data.history = o.keep_history ? history.data() : nullptr;
  data.state = state.data();
}

}  // namespace detail

struct JacobiSolver::Impl {
  JacobiOptions options;
  JacobiProblem problem;
  Partition partition;
  std::unique_ptr<detail::Workspace> workspace;
  std::array<std::unique_ptr<detail::VariantRunner>, kAllVariants.size()> runners;

  detail::VariantRunner& runner(Variant v) {
    auto& r = runners[static_cast<std::size_t>(v)];
    if (!r) {
      if (v == Variant::kernels)
        r = detail::make_kernels_runner(*workspace);
      else if (v == Variant::graph)
        r = detail::make_graph_runner(*workspace);
      else
        r = detail::make_task_runner(v, *workspace, problem, partition, options);
    }
    return *r;
  }
};

JacobiSolver::JacobiSolver(const sparse::Csr<double>& a, std::span<const double> b, const JacobiOptions& options)
    : impl_(std::make_unique<Impl>()) {
  if (!(options.tolerance >= 0)) throw std::invalid_argument("jacobi: the tolerance must be >= 0");
  if (options.max_iterations < 0) throw std::invalid_argument("jacobi: negative max_iterations");
  if (options.checkpoint_interval < 1) throw std::invalid_argument("jacobi: the checkpoint interval must be >= 1");
  impl_->options = options;
  impl_->problem = split_diagonal(a);
  if (b.size() != static_cast<std::size_t>(a.rows))
    throw std::invalid_argument("jacobi: b has " + std::to_string(b.size()) + " entries, expected " +
                                std::to_string(a.rows));
  impl_->partition = partition_rows(impl_->problem.row_ptr, options.partition);
  if (options.keep_history &&
      static_cast<std::size_t>(a.rows) * static_cast<std::size_t>(options.max_iterations) > detail::kMaxHistoryDoubles)
    throw std::invalid_argument("jacobi: keep_history would need more than 2 GiB");
  impl_->workspace = std::make_unique<detail::Workspace>(impl_->problem, impl_->partition, b, options);
}

JacobiSolver::~JacobiSolver() = default;
JacobiSolver::JacobiSolver(JacobiSolver&&) noexcept = default;
JacobiSolver& JacobiSolver::operator=(JacobiSolver&&) noexcept = default;

const JacobiProblem& JacobiSolver::problem() const { return impl_->problem; }
const Partition& JacobiSolver::partition() const { return impl_->partition; }
const JacobiOptions& JacobiSolver::options() const { return impl_->options; }

JacobiRun JacobiSolver::solve(Variant variant, Scheduler scheduler) {
  Impl& m = *impl_;
  const auto n = static_cast<std::size_t>(m.problem.n);
  JacobiRun run;
  run.variant = variant;
  run.scheduler = scheduler;
  if (m.options.max_iterations == 0) {  // nothing to do: x(0)
    run.x.assign(n, 1.0);
    return run;
  }
  detail::VariantRunner& runner = m.runner(variant);
  detail::Workspace& ws = *m.workspace;
  cudaStream_t stream = nullptr;
  ws.reset(stream);
  APIARY_CUDA_CHECK(cudaStreamSynchronize(stream));
  detail::RunnerResult r = runner.run(scheduler, stream);

  const JacobiState state = ws.state.to_host(stream)[0];
  // Every variant ends by a decision to stop; anything else is a bug in the variant (or
  // the scheduler), never a result.
  if (state.stop == 0 || state.iterations < 1 || state.iterations > m.options.max_iterations)
    throw RunError("jacobi " + std::string(to_string(variant)) + ": the run ended without a decision to stop (" +
                   std::to_string(state.iterations) + " iterations recorded)");
  run.iterations = state.iterations;
  run.converged = state.converged != 0;
  run.last_change = state.last_change;
  run.milliseconds = r.milliseconds;
  run.stats = std::move(r.stats);
  run.trace = std::move(r.trace);
  run.queue_names = std::move(r.queue_names);
  run.x.resize(n);
  const double* last = ws.x.data() + static_cast<std::size_t>(run.iterations % ws.data.x_ring) * n;
  APIARY_CUDA_CHECK(cudaMemcpy(run.x.data(), last, n * sizeof(double), cudaMemcpyDeviceToHost));
  run.changes.resize(static_cast<std::size_t>(run.iterations));
  APIARY_CUDA_CHECK(
      cudaMemcpy(run.changes.data(), ws.changes.data(), run.changes.size() * sizeof(double), cudaMemcpyDeviceToHost));
  if (m.options.keep_history) {
    std::vector<double> all(n * static_cast<std::size_t>(run.iterations));
    APIARY_CUDA_CHECK(cudaMemcpy(all.data(), ws.history.data(), all.size() * sizeof(double), cudaMemcpyDeviceToHost));
    for (int k = 0; k < run.iterations; ++k)
      run.history.emplace_back(all.begin() + static_cast<std::ptrdiff_t>(k * n),
                               all.begin() + static_cast<std::ptrdiff_t>((k + 1) * n));
  }
  return run;
}

JacobiRun jacobi_solve(const sparse::Csr<double>& a, std::span<const double> b, Variant variant, Scheduler scheduler,
                       const JacobiOptions& options) {
  JacobiSolver solver(a, b, options);
  return solver.solve(variant, scheduler);
}

}  // namespace apiary::jacobi
