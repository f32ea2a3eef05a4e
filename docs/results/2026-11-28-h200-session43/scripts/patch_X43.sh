#!/usr/bin/env bash
# Experiment (session 43): where tassl-deps' fixed cost per run goes.
#  APIARY_X_BLOCKS=N   cap every megakernel grid at N blocks
#  APIARY_X_CAP=1      tassl-deps/phases cap the grid at the widest sub-graph level
#  APIARY_X_NOEVENTS=1 no event timer around the megakernel
#  APIARY_X_PROBE=1    events before prepare, between, after; host stamps; one stderr line per run
python3 - <<'PY'
def edit(p, pairs):
    s=open(p).read()
    for a,b in pairs:
        assert s.count(a)==1, (p,a)
        s=s.replace(a,b)
    open(p,'w').write(s)
edit('runtime/run_options.hpp', [("  int blocks_per_sm = 0;", "  int blocks_per_sm = 0;\n  int max_blocks = 0;")])
edit('schedulers/megakernel.cuh', [
("""  auto v = rt.prepare(stream);
  auto kernel = sched::by_trace(rt.options().trace, [](auto traced) { return megakernel<V, decltype(traced)::value>; });
  LaunchResources& res = rt.launch_resources();
  if (res.megakernel_blocks == 0) res.megakernel_blocks = resident_blocks(rt);
  const int blocks = res.megakernel_blocks;""",
"""  static const bool x_noev = std::getenv("APIARY_X_NOEVENTS") != nullptr;
  static const bool x_probe = std::getenv("APIARY_X_PROBE") != nullptr;
  static const int x_blocks = std::getenv("APIARY_X_BLOCKS") ? std::atoi(std::getenv("APIARY_X_BLOCKS")) : 0;
  static cudaEvent_t xe[3] = {};
  if (x_probe && xe[0] == nullptr) for (auto& e : xe) APIARY_CUDA_CHECK(cudaEventCreate(&e));
  using XClock = std::chrono::steady_clock;
  const auto h0 = XClock::now();
  if (x_probe) APIARY_CUDA_CHECK(cudaEventRecord(xe[0], stream));
  auto v = rt.prepare(stream);
  const auto h1 = XClock::now();
  auto kernel = sched::by_trace(rt.options().trace, [](auto traced) { return megakernel<V, decltype(traced)::value>; });
  LaunchResources& res = rt.launch_resources();
  if (res.megakernel_blocks == 0) res.megakernel_blocks = resident_blocks(rt);
  int blocks = res.megakernel_blocks;
  if (x_blocks > 0) blocks = std::min(blocks, x_blocks);
  if (rt.options().max_blocks > 0) blocks = std::min(blocks, rt.options().max_blocks);"""),
("""  timer.start(stream);
  kernel<<<blocks, C::block_threads, C::shared_bytes, stream>>>(v);
  APIARY_CUDA_CHECK_LAUNCH();
  timer.stop(stream);
  RunStats s = rt.finish(Scheduler::megakernel, stream);
  s.milliseconds = timer.elapsed_ms();""",
"""  if (x_probe) APIARY_CUDA_CHECK(cudaEventRecord(xe[1], stream));
  else if (!x_noev) timer.start(stream);
  kernel<<<blocks, C::block_threads, C::shared_bytes, stream>>>(v);
  APIARY_CUDA_CHECK_LAUNCH();
  const auto h2 = XClock::now();
  if (x_probe) APIARY_CUDA_CHECK(cudaEventRecord(xe[2], stream));
  else if (!x_noev) timer.stop(stream);
  RunStats s = rt.finish(Scheduler::megakernel, stream);
  const auto h3 = XClock::now();
  if (x_probe) {
    float a = 0, b = 0;
    APIARY_CUDA_CHECK(cudaEventElapsedTime(&a, xe[0], xe[1]));
    APIARY_CUDA_CHECK(cudaEventElapsedTime(&b, xe[1], xe[2]));
    auto us = [](auto d) { return std::chrono::duration<double, std::micro>(d).count(); };
    std::fprintf(stderr, "XPROBE blocks %d prep_gpu %.1f kern_gpu %.1f h_prepare %.1f h_launch %.1f h_total %.1f\\n", blocks,
                 1e3 * a, 1e3 * b, us(h1 - h0), us(h2 - h1), us(h3 - h0));
    s.milliseconds = b;
  } else {
    s.milliseconds = x_noev ? 0.0 : timer.elapsed_ms();
  }"""),
("#pragma once\n", "#pragma once\n#include <chrono>\n#include <cstdio>\n#include <cstdlib>\n"),
])
edit('tasks/sptrsv/tassl.cuh', [
("""    RunOptions ro;
    ro.queue_capacity = static_cast<std::uint32_t>(plan.subgraphs) + 1;""",
"""    RunOptions ro;
    ro.queue_capacity = static_cast<std::uint32_t>(plan.subgraphs) + 1;
    if (std::getenv("APIARY_X_CAP") != nullptr) {
      index_t widest = 1;
      for (std::size_t k = 0; k + 1 < plan.level_ptr.size(); ++k) widest = std::max(widest, plan.level_ptr[k + 1] - plan.level_ptr[k]);
      ro.max_blocks = static_cast<int>(widest);
    }
    ro.trace = std::getenv("APIARY_X_TRACE") != nullptr;"""),
("""      last_ = deps_rt_->run(options_.scheduler, stream);""",
"""      last_ = deps_rt_->run(options_.scheduler, stream);
      if (const char* x = std::getenv("APIARY_X_TRACE"))
        deps_rt_->write_trace(std::string(x) + "-n" + std::to_string(n_) + ".json", options_.scheduler);"""),
])
PY
# Trace records of the megakernel's own start and end (queue 200: a block's entry to its loop exit; 201: write_back).
python3 - <<'PY'
def edit(p, pairs):
    s=open(p).read()
    for a,b in pairs:
        assert s.count(a)==1, (p,a)
        s=s.replace(a,b)
    open(p,'w').write(s)
edit('schedulers/megakernel.cuh', [
("""  __shared__ LocalSlot<P> local;
  if (threadIdx.x == 0) {
    local.next.full = 0;""", """  __shared__ LocalSlot<P> local;
  unsigned long long x_entry = 0;
  if constexpr (Trace) { if (threadIdx.x == 0) x_entry = global_time_ns(); }
  if (threadIdx.x == 0) {
    local.next.full = 0;"""),
("""  __shared__ int s_last;
  if (threadIdx.x == 0) {""", """  __shared__ int s_last;
  if constexpr (Trace) {
    if (threadIdx.x == 0) {
      const unsigned long long k = atomicAdd(v.trace_count, 1ull);
      if (k < v.trace_capacity) v.trace[k] = TraceRecord{200u, sm_id(), x_entry, global_time_ns()};
    }
  }
  if (threadIdx.x == 0) {"""),
("""  if (s_last != 0) write_back(v);
}""", """  const unsigned long long x_wb = global_time_ns();
  if (s_last != 0) write_back(v);
  if constexpr (Trace) {
    if (s_last != 0 && threadIdx.x == 0) {
      const unsigned long long k = atomicAdd(v.trace_count, 1ull);
      if (k < v.trace_capacity) v.trace[k] = TraceRecord{201u, sm_id(), x_wb, global_time_ns()};
    }
  }
}"""),
])
edit('runtime/trace.cpp', [("""    const std::string& name = r.queue < type_names.size() ? type_names[r.queue] : std::string("task");""",
"""    const std::string name = r.queue < type_names.size() ? type_names[r.queue] : r.queue == 200 ? std::string("block") : r.queue == 201 ? std::string("writeback") : std::string("task");""")])
PY
# APIARY_X_CARVE=1: prepare_run prefers the largest shared-memory carve-out, like the megakernel after it.
python3 - <<'PY'
p='runtime/runtime.cuh'
s=open(p).read()
a="""    const auto blocks = static_cast<unsigned>(std::min<std::uint64_t>((most + 255) / 256, 1024));"""
assert s.count(a)==1
s=s.replace(a, a+"""
    static const bool x_carve = [] {
      const bool on = std::getenv("APIARY_X_CARVE") != nullptr;
      if (on) APIARY_CUDA_CHECK(cudaFuncSetAttribute(detail::prepare_run<kTypes, kPhases>, cudaFuncAttributePreferredSharedMemoryCarveout, 100));
      return on;
    }();
    static_cast<void>(x_carve);""")
s=s.replace("#include <cstdint>\n","#include <cstdint>\n#include <cstdlib>\n",1)
open(p,'w').write(s)
PY
