// Latency calibration on one thread: what each step of a dependency hop costs.
#include <cstdio>
#include <cuda/atomic>
using ull = unsigned long long;
template <class T> using aref = cuda::atomic_ref<T, cuda::thread_scope_device>;
__device__ ull now() { ull t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
constexpr int N = 4096;
__global__ void k(ull* a, unsigned* st, ull* out, int mode) {
  ull idx = 0, t0 = now();
  for (int i = 0; i < N; ++i) {
    switch (mode) {
      case 0: idx = aref<ull>(a[idx & 1023]).fetch_add(0, cuda::std::memory_order_relaxed); break;
      case 1: idx = aref<ull>(a[idx & 1023]).fetch_add(0, cuda::std::memory_order_acq_rel); break;
      case 2: idx = aref<ull>(a[idx & 1023]).load(cuda::std::memory_order_relaxed); break;
      case 3: st[i & 1023] = i; cuda::atomic_thread_fence(cuda::std::memory_order_release, cuda::thread_scope_device); break;
      case 4: aref<unsigned>(st[i & 1023]).fetch_add(1, cuda::std::memory_order_relaxed); cuda::atomic_thread_fence(cuda::std::memory_order_release, cuda::thread_scope_device); break;
      case 5: cuda::atomic_thread_fence(cuda::std::memory_order_release, cuda::thread_scope_device); break;
      case 6: {  // a hop: acq_rel RMW, dependent load, release store, two REDs
        idx = aref<ull>(a[idx & 1023]).fetch_add(0, cuda::std::memory_order_acq_rel);
        idx = aref<ull>(a[(idx + 1) & 1023]).load(cuda::std::memory_order_relaxed);
        aref<unsigned>(st[(idx + 5) & 1023]).store(0, cuda::std::memory_order_release);
        aref<unsigned>(st[(idx + 7) & 1023]).fetch_add(1, cuda::std::memory_order_relaxed);
        aref<unsigned>(st[(idx + 9) & 1023]).fetch_add(1, cuda::std::memory_order_relaxed);
        break;
      }
      case 7: {  // the same with relaxed RMW + acquire fence
        idx = aref<ull>(a[idx & 1023]).fetch_add(0, cuda::std::memory_order_relaxed);
        idx = aref<ull>(a[(idx + 1) & 1023]).load(cuda::std::memory_order_relaxed);
        aref<unsigned>(st[(idx + 5) & 1023]).store(0, cuda::std::memory_order_relaxed);
        aref<unsigned>(st[(idx + 7) & 1023]).fetch_add(1, cuda::std::memory_order_relaxed);
        aref<unsigned>(st[(idx + 9) & 1023]).fetch_add(1, cuda::std::memory_order_relaxed);
        break;
      }
      case 8: { __syncthreads(); __syncthreads(); __syncthreads(); __syncthreads(); break; }
      case 9: idx = aref<ull>(a[idx & 1023]).load(cuda::std::memory_order_acquire); break;
      case 10: {  // fast-path hop: acquire load of the word, RED, dependent load, 2 RED
        idx = aref<ull>(a[idx & 1023]).load(cuda::std::memory_order_acquire);
        aref<ull>(a[(idx + 3) & 1023]).fetch_add(0, cuda::std::memory_order_relaxed);
        idx = aref<ull>(a[(idx + 1) & 1023]).load(cuda::std::memory_order_relaxed);
        aref<unsigned>(st[(idx + 7) & 1023]).fetch_add(1, cuda::std::memory_order_relaxed);
        aref<unsigned>(st[(idx + 9) & 1023]).fetch_add(1, cuda::std::memory_order_relaxed);
        break;
      }
      case 11: {  // shared atomicAdd with its result used
        __shared__ unsigned sh[32];
        if (i == 0) sh[0] = 0;
        idx += atomicAdd(&sh[idx & 1], 1u) & 1;
        break;
      }
    }
  }
  out[0] = now() - t0;
  out[1] = idx;
}
int main() {
  ull *a, *out; unsigned* st;
  cudaMalloc(&a, 1024 * 8); cudaMemset(a, 0, 1024 * 8);
  cudaMalloc(&st, 1024 * 4); cudaMemset(st, 0, 1024 * 4);
  cudaMallocManaged(&out, 16);
  const char* names[] = {"RMW relaxed", "RMW acq_rel", "load relaxed", "store+fence", "RED+fence", "fence alone",
                         "hop (acq_rel RMW, load, release store, 2 RED)", "hop, all relaxed", "4 x __syncthreads (256 threads)", "load acquire",
                         "fast-path hop (acquire load, RED, load, 2 RED)", "shared atomicAdd (result used)"};
  for (int m = 0; m <= 11; ++m) {
    int threads = m == 8 ? 256 : 1;
    k<<<1, threads>>>(a, st, out, m); cudaDeviceSynchronize();
    k<<<1, threads>>>(a, st, out, m); cudaDeviceSynchronize();
    printf("%-48s %7.1f ns\n", names[m], double(out[0]) / N);
  }
  return 0;
}
