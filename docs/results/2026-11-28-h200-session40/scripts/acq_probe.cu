#include <cuda/atomic>
__global__ void acq(unsigned long long* p, unsigned long long want, int* out) {
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> a(*p);
  while (a.load(cuda::std::memory_order_acquire) != want) __nanosleep(32);
  *out = 1;
}
__global__ void rlx(unsigned long long* p, unsigned long long want, int* out) {
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> a(*p);
  while (a.load(cuda::std::memory_order_relaxed) != want) __nanosleep(32);
  cuda::atomic_thread_fence(cuda::std::memory_order_acquire, cuda::thread_scope_device);
  *out = 1;
}
