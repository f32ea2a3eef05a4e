// The plain-CUDA baselines: kernel-by-kernel with a host loop, and the same kernels in
// a CUDA graph looped on the device by a conditional WHILE node. Also the workspace
// reset, which both baselines and the task programs use.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "runtime/context.cuh"
#include "runtime/cuda_check.hpp"
#include "runtime/event_timer.hpp"
#include "tasks/jacobi/workspace.hpp"

namespace apiary::jacobi::detail {

namespace {

__global__ void fill_kernel(double* x, int n, double value) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) x[i] = value;
}

// Not __syncthreads: update_chunk and block_sum reach their barriers with warps diverged
// by rank-dependent branches, which the .aligned form forbids (synccheck: "divergent
// threads in warp"); see cta_barrier.
__device__ inline void block_sync() { cta_barrier(); }

// One block per chunk. The iteration comes from `iteration` when it is not null (the
// graph's body cannot change kernel arguments between rounds). At most 40 registers, so
// that 6 blocks of 256 threads fit an SM: the batched gathers of update_rows need 44
// unbounded (5 blocks); bounded, ptxas spills 4 bytes.
__global__ void __launch_bounds__(kTaskThreads, 6) update_kernel(DeviceData d, int k, const int* iteration) {
  // The plain update, not the task programs' staged one: staged (40 KB of shared memory,
  // 5 blocks per SM instead of 6), this kernel took 142.6 instead of 108.9 us per
  // iteration at 10^7 non-zeros, budget 4096, and the same within 5% at 10^4..10^6
  // (H200, session 16).
  __shared__ Scratch scratch;
  if (iteration != nullptr) k = *iteration;
  update_chunk<RowUpdate::plain>(d, static_cast<int>(blockIdx.x), k, static_cast<int>(threadIdx.x), &scratch, nullptr,
                                 block_sync);
}

// One block: the change of iteration k and the decision. In the graph it also advances
// the iteration, or ends the WHILE loop.
__global__ void __launch_bounds__(kTaskThreads)
    decide_kernel(DeviceData d, int k, int* iteration, cudaGraphConditionalHandle loop) {
  __shared__ Scratch scratch;
  if (iteration != nullptr) k = *iteration;
  const bool stop = reduce_and_decide(d, k, static_cast<int>(threadIdx.x), &scratch, block_sync);
  // Every thread read *iteration before the barriers in reduce_and_decide.
  if (threadIdx.x == 0 && iteration != nullptr) {
    if (stop)
      cudaGraphSetConditional(loop, 0);
    else
      *iteration = k + 1;
  }
}

class KernelsRunner final : public VariantRunner {
 public:
  explicit KernelsRunner(Workspace& ws) : ws_(ws), host_state_(1) {}

  RunnerResult run(Scheduler, cudaStream_t stream) override {
    const DeviceData& d = ws_.data;
    EventTimer timer;
    timer.start(stream);
    for (int k = 0; k < d.max_iterations; ++k) {
      update_kernel<<<d.chunk_count, kTaskThreads, 0, stream>>>(d, k, nullptr);
      APIARY_CUDA_CHECK_LAUNCH();
      decide_kernel<<<1, kTaskThreads, 0, stream>>>(d, k, nullptr, cudaGraphConditionalHandle{});
      APIARY_CUDA_CHECK_LAUNCH();
      // The host reads the outcome every iteration and decides whether to go on.
      APIARY_CUDA_CHECK(
          cudaMemcpyAsync(host_state_.host(), d.state, sizeof(JacobiState), cudaMemcpyDeviceToHost, stream));
      APIARY_CUDA_CHECK(cudaStreamSynchronize(stream));
      if (host_state_.host()->stop != 0) break;
    }
    timer.stop(stream);
    RunnerResult r;
    r.milliseconds = timer.elapsed_ms();
    return r;
  }

 private:
  Workspace& ws_;
  MappedHostBuffer<JacobiState> host_state_;  // pinned: the copy is a true async DMA
};

class GraphRunner final : public VariantRunner {
 public:
  explicit GraphRunner(Workspace& ws) : ws_(ws) {
    APIARY_CUDA_CHECK(cudaGraphCreate(&graph_, 0));
    try {
      build();
    } catch (...) {
      destroy();
      throw;
    }
  }
  ~GraphRunner() override { destroy(); }
  GraphRunner(const GraphRunner&) = delete;
  GraphRunner& operator=(const GraphRunner&) = delete;

  RunnerResult run(Scheduler, cudaStream_t stream) override {
    EventTimer timer;
    timer.start(stream);
    APIARY_CUDA_CHECK(cudaGraphLaunch(exec_, stream));
    timer.stop(stream);
    RunnerResult r;
    r.milliseconds = timer.elapsed_ms();
    APIARY_CUDA_CHECK(cudaStreamSynchronize(stream));
    return r;
  }

 private:
  void build() {
    // The loop condition starts at 1 at every launch (cudaGraphCondAssignDefault); the
    // decide kernel sets it to 0 when it stops. The workspace reset puts the iteration
    // counter back to 0 before every launch.
    cudaGraphConditionalHandle loop{};
    APIARY_CUDA_CHECK(cudaGraphConditionalHandleCreate(&loop, graph_, 1, cudaGraphCondAssignDefault));
    cudaGraphNodeParams params{};
    params.type = cudaGraphNodeTypeConditional;
    params.conditional.handle = loop;
    params.conditional.type = cudaGraphCondTypeWhile;
    params.conditional.size = 1;
    cudaGraphNode_t node{};
    APIARY_CUDA_CHECK(cudaGraphAddNode(&node, graph_, nullptr, nullptr, 0, &params));
    cudaGraph_t body = params.conditional.phGraph_out[0];

    // Kernel arguments are copied when the node is added.
    DeviceData d = ws_.data;
    int k0 = 0;
    int* iteration = ws_.iteration.data();
    const int* iteration_const = iteration;
    void* update_args[] = {&d, &k0, &iteration_const};
    cudaKernelNodeParams update{};
    update.func = reinterpret_cast<void*>(update_kernel);
    update.gridDim = dim3(static_cast<unsigned>(d.chunk_count));
    update.blockDim = dim3(kTaskThreads);
    update.kernelParams = update_args;
    cudaGraphNode_t update_node{};
    APIARY_CUDA_CHECK(cudaGraphAddKernelNode(&update_node, body, nullptr, 0, &update));

    void* decide_args[] = {&d, &k0, &iteration, &loop};
    cudaKernelNodeParams decide{};
    decide.func = reinterpret_cast<void*>(decide_kernel);
    decide.gridDim = dim3(1);
    decide.blockDim = dim3(kTaskThreads);
    decide.kernelParams = decide_args;
    cudaGraphNode_t decide_node{};
    APIARY_CUDA_CHECK(cudaGraphAddKernelNode(&decide_node, body, &update_node, 1, &decide));

    APIARY_CUDA_CHECK(cudaGraphInstantiate(&exec_, graph_, 0));
  }

  void destroy() noexcept {
    if (exec_ != nullptr) cudaGraphExecDestroy(exec_);
    if (graph_ != nullptr) cudaGraphDestroy(graph_);
    exec_ = nullptr;
    graph_ = nullptr;
  }

  Workspace& ws_;
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

}  // namespace

void Workspace::reset(cudaStream_t stream) {
  const int n = data.n;
  fill_kernel<<<std::min((n + 255) / 256, 1024), 256, 0, stream>>>(x_at(data, 0), n, 1.0);
  APIARY_CUDA_CHECK_LAUNCH();
  piece_arrivals.fill_zero(stream);
  arrivals.fill_zero(stream);
  reserved.fill_zero(stream);
  state.fill_zero(stream);
  changes.fill_zero(stream);
  deps.fill_zero(stream);
  iteration.fill_zero(stream);
}

std::unique_ptr<VariantRunner> make_kernels_runner(Workspace& ws) { return std::make_unique<KernelsRunner>(ws); }
std::unique_ptr<VariantRunner> make_graph_runner(Workspace& ws) { return std::make_unique<GraphRunner>(ws); }

}  // namespace apiary::jacobi::detail
