// The TASSL variants: tassl-deps and tassl-phases through the runtime, tassl-kernels as
// the paper ran it (one kernel launch per sub-graph level, one block per sub-graph).
// Included once per precision and task width by tassl_{float,double}_{256,512}.cu, so
// the four compile in parallel.
#pragma once

#include "tasks/sptrsv/tassl_solver.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "runtime/device_buffer.hpp"
#include "tasks/sptrsv/tassl_programs.cuh"

namespace apiary::sptrsv {

namespace tassl_detail {

template <class Real, int Threads>
__global__ void __launch_bounds__(Threads) solve_level_kernel(const PlanView<Real> plan, const index_t* order,
                                                              const Real* b, Real* x, int rhs) {
  extern __shared__ __align__(16) unsigned char smem[];
  solve_subgraph<Threads>(plan, plan.tasks[order[blockIdx.x]], b, x, rhs, static_cast<int>(threadIdx.x),
                                smem, [] { __syncthreads(); });
}

// The plan's edges, uploaded as its three arrays, packed into Edge records on the device
// with the sentinel after them (PlanView::edges). Packed on the host, the records of a
// 3-million-edge plan took 50-80 ms to write (a fresh 48 MB array, one thread), more than
// the rest of the set-up together (H100 host, session 27).
template <class Real>
__global__ void pack_edges_kernel(const index_t* source, const index_t* target, const double* value, std::size_t count,
                                  Edge<Real>* edges) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t e = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; e <= count; e += stride)
    edges[e] = e < count ? Edge<Real>{source[e], target[e], static_cast<Real>(value[e])} : Edge<Real>{0, 0, Real{0}};
}

template <class Real>
DeviceBuffer<Edge<Real>> packed_edges(const DevicePlan& plan) {
  const std::size_t count = plan.edge_source.size();
  DeviceBuffer<Edge<Real>> edges(count + 1);
  const DeviceBuffer<index_t> source = to_device(plan.edge_source), target = to_device(plan.edge_target);
  const DeviceBuffer<double> value = to_device(plan.edge_value);
  constexpr unsigned kThreads = 256;
  const auto blocks = static_cast<unsigned>(std::min<std::size_t>((count + kThreads) / kThreads, 4096));
  pack_edges_kernel<Real><<<blocks, kThreads>>>(source.data(), target.data(), value.data(), count, edges.data());
  APIARY_CUDA_CHECK_LAUNCH();
  APIARY_CUDA_CHECK(cudaStreamSynchronize(nullptr));  // before the inputs are freed
  return edges;
}

template <class To, class Allocator>
std::vector<To> converted(const std::vector<double, Allocator>& v) {
  return std::vector<To>(v.begin(), v.end());
}

template <class Real, int Threads>
class TasslSolver final : public TriangularSolver<Real> {
 public:
  TasslSolver(Variant variant, const DevicePlan& plan, const SolverOptions& o) : variant_(variant), options_(o) {
    if (plan.threads != Threads) throw std::invalid_argument("TasslSolver: the plan is for another task width");
    if (plan.largest > max_subgraph<Real>(Threads))
      throw std::invalid_argument("TasslSolver: a sub-graph of " + std::to_string(plan.largest) +
                                  " unknowns does not fit a task of " + std::to_string(Threads) + " threads");
    const auto t0 = std::chrono::steady_clock::now();
    n_ = plan.n;
    largest_ = plan.largest;
    level_ptr_host_ = plan.level_ptr;
    const std::vector<SubgraphTask> tasks = subgraph_tasks(plan);
    tasks_ = to_device(tasks);
    load_index_ = to_device(plan.load_index);
    if constexpr (std::is_same_v<Real, double>)
      diagonal_ = to_device(plan.diagonal);
    else
      diagonal_ = to_device(converted<Real>(plan.diagonal));
    edge_ptr_ = to_device(plan.edge_ptr);
    edges_ = packed_edges<Real>(plan);
    order_ = to_device(plan.order);
    env_.plan = PlanView<Real>{n_, tasks_.data(), load_index_.data(), diagonal_.data(), edge_ptr_.data(), edges_.data()};
    RunOptions ro;
    ro.queue_capacity = static_cast<std::uint32_t>(plan.subgraphs) + 1;
    // A solve is compared by its wall time; its kernel time comes from the device clock,
    // and the two event records it saves are about 5 us of a solve of tens (H200).
    ro.event_timer = false;
    if (variant == Variant::tassl_deps) {
      for (index_t g = 0; g < plan.subgraphs; ++g) {
        if (plan.pred_count[g] == 0)
          roots_.push_back(tasks[g]);
        else
          waiting_.push_back(g);
      }
      succ_ = to_device(plan.succ);
      pred_count_ = to_device(plan.pred_count);
      waiting_dev_ = to_device(waiting_);
      deps_ = make_dependencies(static_cast<std::size_t>(plan.subgraphs));
      env_.deps = deps_.data();
      env_.succ = succ_.data();
      env_.pred_count = pred_count_.data();
      env_.waiting = waiting_dev_.data();
      // Twice the tasks that wait: short probe sequences in the hashed storage.
      ro.waiting_capacity = static_cast<std::uint32_t>(2 * waiting_.size() + 16);
      deps_rt_ = std::make_unique<Runtime<TasslDepsProgram<Real, Threads>, TasslEnv<Real>>>(ro, env_);
    } else if (variant == Variant::tassl_phases) {
      level_ = to_device(plan.level);
      level_ptr_ = to_device(plan.level_ptr);
      env_.levels = LevelView{level_.data(), level_ptr_.data(), order_.data(), plan.levels()};
      first_level_.assign(plan.order.begin(), plan.order.begin() + (plan.levels() > 0 ? plan.level_ptr[1] : 0));
      ro.cyclic = true;
      ro.waiting_capacity = 1;
      phases_rt_ = std::make_unique<Runtime<TasslPhasesProgram<Real, Threads>, TasslEnv<Real>>>(ro, env_);
    } else if (variant == Variant::tassl_kernels) {
      // Above 48 KiB of dynamic shared memory a kernel must opt in.
      const auto most = static_cast<int>(subgraph_shared_bytes<Real>(max_subgraph<Real>(Threads)));
      APIARY_CUDA_CHECK(
          cudaFuncSetAttribute(solve_level_kernel<Real, Threads>, cudaFuncAttributeMaxDynamicSharedMemorySize, most));
    } else {
      throw std::invalid_argument("TasslSolver: not a TASSL variant");
    }
    setup_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }

  void solve(const Real* d_b, Real* d_x, int rhs, cudaStream_t stream) override {
    if (rhs < 1) throw std::invalid_argument("sptrsv: rhs must be at least 1");
    env_.b = d_b;
    env_.x = d_x;
    env_.rhs = rhs;
    if (n_ == 0) return;
    if (variant_ == Variant::tassl_kernels) {
      const std::size_t smem = subgraph_shared_bytes<Real>(largest_);
      for (std::size_t k = 0; k + 1 < level_ptr_host_.size(); ++k) {
        const index_t count = level_ptr_host_[k + 1] - level_ptr_host_[k];
        solve_level_kernel<Real, Threads>
            <<<count, Threads, smem, stream>>>(env_.plan, order_.data() + level_ptr_host_[k], d_b, d_x, rhs);
        APIARY_CUDA_CHECK_LAUNCH();
      }
      return;
    }
    if (deps_rt_) {
      deps_rt_->env() = env_;
      std::vector<WaitingRange> create;
      const index_t w = static_cast<index_t>(waiting_.size());
      for (index_t i = 0; i < w; i += CreateWaiting<Real, Threads>::threads)
        create.push_back(WaitingRange{i, std::min<index_t>(w, i + CreateWaiting<Real, Threads>::threads)});
      deps_rt_->template seed<CreateWaiting<Real, Threads>>(create);
      deps_rt_->template seed<SolveSubgraph<Real, Threads>>(roots_);
      last_ = deps_rt_->run(options_.scheduler, stream);
    } else {
      phases_rt_->env() = env_;
      // Level 0's sub-graphs; the first of them releases level 1.
      phases_rt_->template seed<SolveLevel<Real, Threads>>(first_level_);
      last_ = phases_rt_->run(options_.scheduler, stream);
    }
  }

  double setup_ms() const override { return setup_ms_; }
  std::optional<RunStats> last_run() const override { return last_; }

 private:
  Variant variant_;
  SolverOptions options_;
  index_t n_ = 0;
  index_t largest_ = 0;
  std::vector<index_t> level_ptr_host_;
  std::vector<SubgraphTask> roots_;
  std::vector<index_t> waiting_, first_level_;
  DeviceBuffer<SubgraphTask> tasks_;
  DeviceBuffer<index_t> load_index_, edge_ptr_, order_;
  DeviceBuffer<Real> diagonal_;
  DeviceBuffer<Edge<Real>> edges_;
  DeviceBuffer<index_t> succ_, pred_count_, waiting_dev_, level_, level_ptr_;
  DeviceBuffer<Dependency> deps_;
  TasslEnv<Real> env_;
  std::unique_ptr<Runtime<TasslDepsProgram<Real, Threads>, TasslEnv<Real>>> deps_rt_;
  std::unique_ptr<Runtime<TasslPhasesProgram<Real, Threads>, TasslEnv<Real>>> phases_rt_;
  std::optional<RunStats> last_;
  double setup_ms_ = 0;
};

}  // namespace tassl_detail

template <class Real, int Threads>
std::unique_ptr<TriangularSolver<Real>> make_tassl_solver_of_width(Variant v, const DevicePlan& plan,
                                                                   const SolverOptions& o) {
  return std::make_unique<tassl_detail::TasslSolver<Real, Threads>>(v, plan, o);
}

}  // namespace apiary::sptrsv
