// Probe 3: 96-thread tasks in 1024-thread blocks with named barriers (racecheck reports a
// RAW on the claim across barrier 0 when some warps of the block sit the batch out).
// Variants: D = double-buffered claim, I = idle threads also pass a named barrier of their own.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

struct Claim { int count; int exit; };
__device__ __forceinline__ void block_barrier() { asm volatile("barrier.sync 0;" ::: "memory"); }

template <int W>
__device__ __noinline__ void task(unsigned* s, int group, int rank, unsigned* errors) {
  s[group * W + rank] = group * 1000 + rank;
  asm volatile("barrier.sync %0, %1;" ::"r"(1 + group), "r"(W) : "memory");
  const int nb = (rank + 1) % W;
  if (s[group * W + nb] != group * 1000u + nb) atomicAdd(errors, 1u);
  asm volatile("barrier.sync %0, %1;" ::"r"(1 + group), "r"(W) : "memory");
}

template <int W, bool Double, bool IdleBarrier, bool All>
__global__ void loop_kernel(int rounds, unsigned* errors) {
  __shared__ Claim claim[2];
  __shared__ unsigned s[1024];
  const int groups = static_cast<int>(blockDim.x / W);
  for (int r = 0;; ++r) {
    Claim& c = claim[Double ? (r & 1) : 0];
    if (threadIdx.x == 0) c = Claim{All ? groups : 1 + r % groups, r >= rounds};
    block_barrier();
    if (c.exit) break;
    const int group = threadIdx.x / W;
    if (group < c.count) {
      task<W>(s, group, threadIdx.x % W, errors);
    } else if (IdleBarrier) {
      const int idle = static_cast<int>(blockDim.x) - c.count * W;
      asm volatile("barrier.sync 15, %0;" ::"r"(idle) : "memory");
    }
    block_barrier();
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
    case 0: what = "96/1024 all groups, plain"; loop_kernel<96, false, false, true><<<blocks, 1024>>>(rounds, errors); break;
    case 1: what = "96/1024 all groups, double claim"; loop_kernel<96, true, false, true><<<blocks, 1024>>>(rounds, errors); break;
    case 2: what = "96/1024 all groups, idle barrier"; loop_kernel<96, false, true, true><<<blocks, 1024>>>(rounds, errors); break;
    case 3: what = "96/1024 some groups, double claim"; loop_kernel<96, true, false, false><<<blocks, 1024>>>(rounds, errors); break;
    case 4: what = "96/1024 some groups, idle barrier"; loop_kernel<96, false, true, false><<<blocks, 1024>>>(rounds, errors); break;
    case 5: what = "64/256 some groups, idle barrier"; loop_kernel<64, false, true, false><<<blocks, 256>>>(rounds, errors); break;
    case 6: what = "64/256 some groups, double + idle"; loop_kernel<64, true, true, false><<<blocks, 256>>>(rounds, errors); break;
    case 7: what = "96/1024 some groups, double + idle"; loop_kernel<96, true, true, false><<<blocks, 1024>>>(rounds, errors); break;
    default: printf("unknown mode\n"); return 2;
  }
  cudaError_t e = cudaDeviceSynchronize();
  unsigned h = 0;
  cudaMemcpy(&h, errors, sizeof h, cudaMemcpyDeviceToHost);
  printf("mode %d (%s): %s, %u value errors\n", mode, what, cudaGetErrorString(e), h);
  return e == cudaSuccess && h == 0 ? 0 : 1;
}
