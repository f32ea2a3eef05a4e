// Racecheck/synccheck probe 2: task barrier forms x scheduler barrier forms.
#include <cstdio>
#include <cstdlib>
#include <cuda/barrier>
#include <cuda_runtime.h>

struct Claim { int count; int exit; };

// Scheduler barrier: 0 = __syncwarp + __syncthreads, 1 = barrier.sync 0 (not .aligned)
template <int S> __device__ __forceinline__ void block_barrier() {
  if constexpr (S == 0) { __syncwarp(); __syncthreads(); }
  else asm volatile("barrier.sync 0;" ::: "memory");
}

// Task barrier: 1 = bar.sync id,n  3 = barrier.sync id,n (not .aligned)  4 = mbarrier
template <int W, int F>
__device__ __forceinline__ void task_sync(int group, cuda::barrier<cuda::thread_scope_block>* bars) {
  if constexpr (F == 1) { __syncwarp(); asm volatile("bar.sync %0, %1;" ::"r"(1 + group), "r"(W) : "memory"); }
  else if constexpr (F == 3) asm volatile("barrier.sync %0, %1;" ::"r"(1 + group), "r"(W) : "memory");
  else bars[group].arrive_and_wait();
}

template <int W, int F>
__device__ __noinline__ void task(unsigned* s, int group, int rank, unsigned* errors, cuda::barrier<cuda::thread_scope_block>* bars) {
  s[group * W + rank] = group * 1000 + rank;
  task_sync<W, F>(group, bars);
  const int nb = (rank + 1) % W;
  if (s[group * W + nb] != group * 1000u + nb) atomicAdd(errors, 1u);
  task_sync<W, F>(group, bars);
}

template <int W, int F, int S, bool All>
__global__ void loop_kernel(int rounds, unsigned* errors) {
  __shared__ Claim claim;
  __shared__ unsigned s[1024];
  __shared__ cuda::barrier<cuda::thread_scope_block> bars[32];
  const int groups = static_cast<int>(blockDim.x / W);
  if constexpr (F == 4) {
    if (threadIdx.x < groups) init(&bars[threadIdx.x], W);
  }
  for (int r = 0;; ++r) {
    if (threadIdx.x == 0) claim = Claim{All ? groups : 1 + r % groups, r >= rounds};
    block_barrier<S>();
    if (claim.exit) break;
    const int group = threadIdx.x / W;
    if (group < claim.count) task<W, F>(s, group, threadIdx.x % W, errors, bars);
    block_barrier<S>();
    block_barrier<S>();
  }
}

int main(int argc, char** argv) {
  const int mode = argc > 1 ? atoi(argv[1]) : 0;
  unsigned* errors;
  cudaMalloc(&errors, sizeof(unsigned));
  cudaMemset(errors, 0, sizeof(unsigned));
  const int rounds = 20, blocks = 2;
  const char* what = "";
  switch (mode) {
    case 0: what = "64 in 256, bar.sync id, sched aligned, all groups"; loop_kernel<64, 1, 0, true><<<blocks, 256>>>(rounds, errors); break;
    case 1: what = "64 in 256, bar.sync id, sched aligned, some groups"; loop_kernel<64, 1, 0, false><<<blocks, 256>>>(rounds, errors); break;
    case 2: what = "64 in 256, barrier.sync id, sched non-aligned, some groups"; loop_kernel<64, 3, 1, false><<<blocks, 256>>>(rounds, errors); break;
    case 3: what = "64 in 256, bar.sync id, sched non-aligned, some groups"; loop_kernel<64, 1, 1, false><<<blocks, 256>>>(rounds, errors); break;
    case 4: what = "64 in 256, mbarrier, sched aligned, some groups"; loop_kernel<64, 4, 0, false><<<blocks, 256>>>(rounds, errors); break;
    case 5: what = "96 in 1024, barrier.sync id, sched non-aligned, some groups"; loop_kernel<96, 3, 1, false><<<blocks, 1024>>>(rounds, errors); break;
    case 6: what = "96 in 1024, mbarrier, sched aligned, some groups"; loop_kernel<96, 4, 0, false><<<blocks, 1024>>>(rounds, errors); break;
    case 7: what = "96 in 1024, bar.sync id, sched aligned, all groups"; loop_kernel<96, 1, 0, true><<<blocks, 1024>>>(rounds, errors); break;
    case 8: what = "96 in 384, bar.sync id, sched aligned, all groups"; loop_kernel<96, 1, 0, true><<<blocks, 384>>>(rounds, errors); break;
    case 9: what = "128 in 1024, bar.sync id, sched aligned, all groups"; loop_kernel<128, 1, 0, true><<<blocks, 1024>>>(rounds, errors); break;
    case 10: what = "64 in 512, bar.sync id, sched aligned, all groups"; loop_kernel<64, 1, 0, true><<<blocks, 512>>>(rounds, errors); break;
    case 11: what = "96 in 1024, bar.sync id, sched aligned, all groups, 1 round"; loop_kernel<96, 1, 0, true><<<blocks, 1024>>>(1, errors); break;
    case 12: what = "256 in 1024, bar.sync id, sched aligned, all groups"; loop_kernel<256, 1, 0, true><<<blocks, 1024>>>(rounds, errors); break;
    case 13: what = "96 in 960, bar.sync id, sched aligned, all groups"; loop_kernel<96, 1, 0, true><<<blocks, 960>>>(rounds, errors); break;
    default: printf("unknown mode\n"); return 2;
  }
  cudaError_t e = cudaDeviceSynchronize();
  unsigned h = 0;
  cudaMemcpy(&h, errors, sizeof h, cudaMemcpyDeviceToHost);
  printf("mode %d (%s): %s, %u value errors\n", mode, what, cudaGetErrorString(e), h);
  return e == cudaSuccess && h == 0 ? 0 : 1;
}
