// The generic program's tree on the device, shared by its task types (generic.cu) and
// by the CUDA graph baseline (graph_baseline.cu): the instance table, the tickets that
// prove the order, the synthetic work of one instance, and the host object that owns
// the buffers.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "runtime/runtime.cuh"
#include "tasks/generic/config.hpp"
#include "tasks/generic/expand.hpp"
#include "tasks/generic/generic.hpp"

namespace apiary::generic {

// What a task needs to know about an instance, in one load per child.
struct DeviceInstance {
  std::uint32_t child_begin;
  std::uint32_t child_end;
  std::uint32_t creator;
  std::uint32_t parent_count;
  std::uint16_t type;
  std::uint8_t depth;
  std::uint8_t size_class;  // index into kWorkerSizes
};

struct GenericEnv {
  const DeviceInstance* instances = nullptr;
  const std::uint32_t* children = nullptr;
  const unsigned long long* type_fmas = nullptr;  // FMAs per instance of each type
  Dependency* deps = nullptr;                     // one per instance (dependencies mode)
  unsigned long long* ticket = nullptr;
  unsigned long long* start_ticket = nullptr;
  unsigned long long* end_ticket = nullptr;
  unsigned* executions = nullptr;
  float* sink = nullptr;
};

__device__ inline unsigned long long take_ticket(const GenericEnv& env) {
  return atomic_ref<unsigned long long>(*env.ticket).fetch_add(1) + 1;
}

// `fmas` FMAs spread evenly over the task's threads, as four dependent chains per
// thread (enough independent work to keep the FMA pipe busy even when a task runs
// alone on an SM). The values stay near 1, so no denormals or infinities slow it down.
template <int Threads>
__device__ void synthetic_work(unsigned long long fmas, std::uint32_t instance, int rank, float* sink) {
  const unsigned long long mine = fmas / Threads + (static_cast<unsigned long long>(rank) < fmas % Threads ? 1 : 0);
  const float seed = 1.0f + static_cast<float>((instance * 31u + static_cast<unsigned>(rank)) & 1023u) * 1e-6f;
  float a = seed, b = seed + 0.25f, c = seed + 0.5f, d = seed + 0.75f;
  const float m = 0.999f, k = 0.001f;
  unsigned long long i = 0;
  for (; i + 4 <= mine; i += 4) {
    a = fmaf(a, m, k);
    b = fmaf(b, m, k);
    c = fmaf(c, m, k);
    d = fmaf(d, m, k);
  }
  for (; i < mine; ++i) a = fmaf(a, m, k);
  const float result = (a + b) + (c + d);
  // Never true (the chains stay positive), but the compiler cannot know, so every
  // thread's chains must be computed.
  if (result < 0.0f) sink[instance] = result;
}

// The whole of one instance's run except creating or releasing its children: the start
// ticket and execution count (rank 0), the type's work on every rank, `sync` (a barrier
// of the instance's threads), then the end ticket (rank 0). Returns the instance.
template <int Threads, class Sync>
__device__ DeviceInstance run_instance(const GenericEnv& env, std::uint32_t self, int rank, Sync&& sync) {
  if (rank == 0) {
    env.start_ticket[self] = take_ticket(env);
    atomicAdd(&env.executions[self], 1u);
  }
  const DeviceInstance me = env.instances[self];
  synthetic_work<Threads>(env.type_fmas[me.type], self, rank, env.sink);
  sync();
  if (rank == 0) env.end_ticket[self] = take_ticket(env);
  return me;
}

// Host: the tree's device buffers. `depth_in_table` stores each instance's depth (phases
// mode); otherwise 0. Tickets and execution counts start at zero (reset() clears them
// again on a stream); collect() copies them into a GenericRun for verify().
class DeviceTree {
 public:
  DeviceTree(const ExecutionTree& tree, bool depth_in_table)
      : host_(make_table(tree, depth_in_table)),
        instances_(std::span<const DeviceInstance>(host_)),
        children_(std::max<std::size_t>(tree.children.size(), 1)),
        type_fmas_(std::span<const unsigned long long>(type_fmas(tree))),
        ticket_(1),
        start_(tree.size()),
        end_(tree.size()),
        executions_(tree.size()),
        sink_(tree.size()) {
    children_.copy_from(tree.children);
    reset(nullptr);
    APIARY_CUDA_CHECK(cudaStreamSynchronize(nullptr));
  }

  const std::vector<DeviceInstance>& table() const { return host_; }

  GenericEnv env(Dependency* deps = nullptr) {
    return GenericEnv{instances_.data(), children_.data(), type_fmas_.data(), deps,           ticket_.data(),
                      start_.data(),     end_.data(),      executions_.data(), sink_.data()};
  }

  void reset(cudaStream_t stream) {
    APIARY_CUDA_CHECK(cudaMemsetAsync(ticket_.data(), 0, ticket_.bytes(), stream));
    APIARY_CUDA_CHECK(cudaMemsetAsync(start_.data(), 0, start_.bytes(), stream));
    APIARY_CUDA_CHECK(cudaMemsetAsync(end_.data(), 0, end_.bytes(), stream));
    APIARY_CUDA_CHECK(cudaMemsetAsync(executions_.data(), 0, executions_.bytes(), stream));
  }

  void collect(GenericRun& run) const {
    const auto s = start_.to_host(), e = end_.to_host();
    run.start_ticket.assign(s.begin(), s.end());
    run.end_ticket.assign(e.begin(), e.end());
    run.executions = executions_.to_host();
  }

 private:
  static std::vector<DeviceInstance> make_table(const ExecutionTree& tree, bool depth_in_table) {
    std::vector<DeviceInstance> host(tree.size());
    for (std::size_t i = 0; i < tree.size(); ++i)
      host[i] = DeviceInstance{tree.child_offsets[i],
                               tree.child_offsets[i + 1],
                               tree.creator[i],
                               static_cast<std::uint32_t>(tree.parent_count(i)),
                               static_cast<std::uint16_t>(tree.type[i]),
                               static_cast<std::uint8_t>(depth_in_table ? tree.depth[i] : 0),
                               static_cast<std::uint8_t>(worker_size_class(tree.types[tree.type[i]].threads))};
    return host;
  }
  static std::vector<unsigned long long> type_fmas(const ExecutionTree& tree) {
    std::vector<unsigned long long> fmas;
    for (const TaskTypeSpec& t : tree.types) fmas.push_back((t.flops + 1) / 2);
    return fmas;
  }

  std::vector<DeviceInstance> host_;
  DeviceBuffer<DeviceInstance> instances_;
  DeviceBuffer<std::uint32_t> children_;
  DeviceBuffer<unsigned long long> type_fmas_;
  DeviceBuffer<unsigned long long> ticket_, start_, end_;
  DeviceBuffer<unsigned> executions_;
  DeviceBuffer<float> sink_;
};

}  // namespace apiary::generic
