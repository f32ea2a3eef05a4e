// The generic program's plain-CUDA baseline: the whole tree as one CUDA graph.
#include <chrono>
#include <memory>
#include <vector>

#include "runtime/event_timer.hpp"
#include "tasks/generic/device_tree.cuh"
#include "tasks/generic/generic.hpp"

namespace apiary::generic {

namespace {

// One instance as a one-block kernel: the task's work, tickets and barrier, and no
// children to create (the graph's edges stand for them).
template <int Threads>
__global__ void __launch_bounds__(Threads) instance_kernel(const GenericEnv env, std::uint32_t self) {
  run_instance<Threads>(env, self, static_cast<int>(threadIdx.x), [] { __syncthreads(); });
}

void* kernel_of(int size_class) {
  switch (size_class) {
    case 0: return reinterpret_cast<void*>(instance_kernel<kWorkerSizes[0]>);
    case 1: return reinterpret_cast<void*>(instance_kernel<kWorkerSizes[1]>);
    case 2: return reinterpret_cast<void*>(instance_kernel<kWorkerSizes[2]>);
    default: return reinterpret_cast<void*>(instance_kernel<kWorkerSizes[3]>);
  }
}

}  // namespace

struct GenericGraph::Impl {
  explicit Impl(const ExecutionTree& t) : tree(t), device(t, false) {}
  ~Impl() {
    if (exec) cudaGraphExecDestroy(exec);
    if (graph) cudaGraphDestroy(graph);
    if (stream) cudaStreamDestroy(stream);
  }
  const ExecutionTree& tree;
  DeviceTree device;
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  cudaStream_t stream = nullptr;
  double build_ms = 0;
};

GenericGraph::GenericGraph(const ExecutionTree& tree) : impl_(std::make_unique<Impl>(tree)) {
  if (tree.size() == 0) throw std::invalid_argument("generic: the execution tree is empty");
  Impl& g = *impl_;
  const auto t0 = std::chrono::steady_clock::now();
  APIARY_CUDA_CHECK(cudaStreamCreateWithFlags(&g.stream, cudaStreamNonBlocking));
  APIARY_CUDA_CHECK(cudaGraphCreate(&g.graph, 0));
  GenericEnv env = g.device.env();
  std::vector<cudaGraphNode_t> nodes(tree.size());
  std::vector<cudaGraphNode_t> deps;
  for (std::size_t i = 0; i < tree.size(); ++i) {
    // Parents have smaller indices than their children (expand.hpp), so their nodes exist.
    deps.clear();
    for (std::uint32_t k = tree.parent_offsets[i]; k < tree.parent_offsets[i + 1]; ++k)
      deps.push_back(nodes[tree.parents[k]]);
    const int size_class = g.device.table()[i].size_class;
    auto self = static_cast<std::uint32_t>(i);
    void* args[] = {&env, &self};  // copied by cudaGraphAddKernelNode
    cudaKernelNodeParams p{};
    p.func = kernel_of(size_class);
    p.gridDim = dim3(1);
    p.blockDim = dim3(static_cast<unsigned>(kWorkerSizes[size_class]));
    p.sharedMemBytes = 0;
    p.kernelParams = args;
    APIARY_CUDA_CHECK(cudaGraphAddKernelNode(&nodes[i], g.graph, deps.data(), deps.size(), &p));
  }
  APIARY_CUDA_CHECK(cudaGraphInstantiate(&g.exec, g.graph, 0));
  APIARY_CUDA_CHECK(cudaGraphUpload(g.exec, g.stream));
  APIARY_CUDA_CHECK(cudaStreamSynchronize(g.stream));
  g.build_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

GenericGraph::~GenericGraph() = default;

double GenericGraph::build_milliseconds() const { return impl_->build_ms; }

GenericRun GenericGraph::replay() {
  Impl& g = *impl_;
  g.device.reset(g.stream);  // before the timed part
  EventTimer timer;
  timer.start(g.stream);
  APIARY_CUDA_CHECK(cudaGraphLaunch(g.exec, g.stream));
  timer.stop(g.stream);
  GenericRun run;
  run.mode = GenericMode::dependencies;
  run.stats.milliseconds = timer.elapsed_ms();
  run.stats.launches = g.tree.size();  // kernel nodes
  g.device.collect(run);
  return run;
}

}  // namespace apiary::generic
