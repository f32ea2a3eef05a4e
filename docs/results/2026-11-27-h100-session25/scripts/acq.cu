#include <cuda/atomic>
using u64 = unsigned long long;
__global__ void poll_acquire(u64* seq, u64 want, int* out, const int* data) {
  cuda::atomic_ref<u64, cuda::thread_scope_device> s(*seq);
  while (s.load(cuda::std::memory_order_acquire) != want) __nanosleep(32);
  out[0] = data[threadIdx.x];
}
__global__ void poll_relaxed_fence(u64* seq, u64 want, int* out, const int* data) {
  cuda::atomic_ref<u64, cuda::thread_scope_device> s(*seq);
  while (s.load(cuda::std::memory_order_relaxed) != want) __nanosleep(32);
  cuda::atomic_thread_fence(cuda::std::memory_order_acquire, cuda::thread_scope_device);
  out[0] = data[threadIdx.x];
}
__global__ void store_release(u64* seq, u64 v, int* out) {
  out[1] = 5;
  cuda::atomic_ref<u64, cuda::thread_scope_device> s(*seq);
  s.store(v, cuda::std::memory_order_release);
}
__global__ void fetch_add_acq_rel(unsigned* c, int* out) {
  out[threadIdx.x] = 1;
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> a(*c);
  out[64] = a.fetch_add(1u, cuda::std::memory_order_acq_rel);
}
