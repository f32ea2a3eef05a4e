// Internal to tasks/jacobi: the device memory of one prepared problem and the runners
// of the variants (kernels.cu: kernels and graph; tasks.cu: the task programs).
#pragma once

#include <cuda_runtime_api.h>

#include <memory>
#include <optional>
#include <span>

#include "runtime/dependency.hpp"
#include "runtime/device_buffer.hpp"
#include "runtime/stats.hpp"
#include "tasks/jacobi/device.cuh"
#include "tasks/jacobi/jacobi.hpp"

namespace apiary::jacobi::detail {

struct Workspace {
  Workspace(const JacobiProblem& p, const Partition& part, std::span<const double> b, const JacobiOptions& o);

  // Back to x(0) = 1 with every counter, flag and dependency at zero (async on `stream`).
  void reset(cudaStream_t stream);  // kernels.cu

  DeviceData data;  // points into the buffers below
  DeviceBuffer<index_t> row_ptr, col;
  DeviceBuffer<double> val, inv_diag, b, x, partial, piece_sum, changes, history;
  DeviceBuffer<Chunk> chunks;
  DeviceBuffer<unsigned> piece_arrivals;
  DeviceBuffer<unsigned> arrivals;  // autonomous: per iteration, row tasks (+ the previous decider) done
  DeviceBuffer<unsigned long long> reserved;  // autonomous: queue positions reserved, by parity (tasks.cu)
  DeviceBuffer<JacobiState> state;
  // stages-deps: one per chunk (its next row task) and the check's (at 2 x chunks);
  // checkpoints: two per chunk (by the parity of the iteration they hold back), and the
  // checkpoint's.
  DeviceBuffer<Dependency> deps;
  DeviceBuffer<int> iteration;  // graph: the iteration the body runs next
};

struct RunnerResult {
  double milliseconds = 0;
  std::optional<RunStats> stats;
  std::vector<TraceRecord> trace;  // task variants with RunOptions::trace
  std::vector<std::string> queue_names;
};

// One variant bound to a workspace; owns what it needs across solves (an instantiated
// graph, a task runtime with its queues).
class VariantRunner {
 public:
  virtual ~VariantRunner() = default;
  // One solve on a freshly reset workspace; returns when it has finished.
  virtual RunnerResult run(Scheduler scheduler, cudaStream_t stream) = 0;
};

std::unique_ptr<VariantRunner> make_kernels_runner(Workspace& ws);  // kernels.cu
std::unique_ptr<VariantRunner> make_graph_runner(Workspace& ws);    // kernels.cu
std::unique_ptr<VariantRunner> make_task_runner(Variant v, Workspace& ws, const JacobiProblem& p, const Partition& part,
                                                const JacobiOptions& o);  // tasks.cu

}  // namespace apiary::jacobi::detail
