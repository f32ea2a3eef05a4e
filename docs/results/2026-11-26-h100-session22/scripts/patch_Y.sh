#!/usr/bin/env bash
# Experiment: DeviceGraph uploads the CSR arrays after pinning them (cudaHostRegister, read-only), instead of from pageable memory.
python3 - <<'P'
p='tasks/rcm/device_graph.cuh'
s=open(p).read()
old='''        row_ptr(std::span<const index_t>(g.row_ptr)),
        col(std::span<const index_t>(g.col)),'''
assert old in s
s=s.replace(old,'''        row_ptr(upload_pinned(g.row_ptr)),
        col(upload_pinned(g.col)),''')
old='''struct DeviceGraph {'''
s=s.replace(old,'''inline DeviceBuffer<index_t> upload_pinned(const std::vector<index_t>& h) {
  DeviceBuffer<index_t> d(std::max<std::size_t>(h.size(), 1));
  if (h.empty()) return d;
  void* p = const_cast<index_t*>(h.data());
  const std::size_t bytes = h.size() * sizeof(index_t);
  const bool pinned = cudaHostRegister(p, bytes, cudaHostRegisterReadOnly) == cudaSuccess;
  if (!pinned) static_cast<void>(cudaGetLastError());
  APIARY_CUDA_CHECK(cudaMemcpy(d.data(), p, bytes, cudaMemcpyHostToDevice));
  if (pinned) APIARY_CUDA_CHECK(cudaHostUnregister(p));
  return d;
}

struct DeviceGraph {''',1)
open(p,'w').write(s)
P
