// Which barrier patterns does compute-sanitizer's racecheck accept? One kernel per mode,
// each a reduced copy of a megakernel pattern; run each under racecheck and count hazards.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

struct Claim { int count; int exit; };

__device__ __forceinline__ void block_barrier() { __syncwarp(); __syncthreads(); }

template <int W, int Mode>
__device__ __noinline__ void task(unsigned* s, int group, int rank, unsigned* errors) {
  s[group * W + rank] = group * 1000 + rank;
  if constexpr (W < 32) {
    const unsigned lane = threadIdx.x % 32;
    __syncwarp(((1u << W) - 1u) << (lane / W * W));
  } else if constexpr (W == 32) {
    __syncwarp();
  } else {
    __syncwarp();
    if constexpr (Mode == 0) __syncthreads();
    else if constexpr (Mode == 1) asm volatile("bar.sync %0, %1;" ::"r"(1 + group), "r"(W) : "memory");
    else asm volatile("bar.sync 0, %0;" ::"r"(W) : "memory");
  }
  const int nb = (rank + 1) % W;
  if (s[group * W + nb] != group * 1000u + nb) atomicAdd(errors, 1u);
  if constexpr (W < 32) {
    const unsigned lane = threadIdx.x % 32;
    __syncwarp(((1u << W) - 1u) << (lane / W * W));
  } else if constexpr (W == 32) {
    __syncwarp();
  } else {
    __syncwarp();
    if constexpr (Mode == 0) __syncthreads();
    else if constexpr (Mode == 1) asm volatile("bar.sync %0, %1;" ::"r"(1 + group), "r"(W) : "memory");
    else asm volatile("bar.sync 0, %0;" ::"r"(W) : "memory");
  }
}

template <int W, int Mode>
__device__ void execute_batch(unsigned* s, int count, unsigned* errors) {
  const int group = threadIdx.x / W;
  if (group >= count) return;
  task<W, Mode>(s, group, threadIdx.x % W, errors);
}

// Scheduler loop: thread 0 writes the claim, everyone reads it, runs a batch of W-thread
// tasks (count varies per round: some threads sit the batch out), repeat.
template <int W, int Mode, bool Tasks>
__global__ void loop_kernel(int rounds, unsigned* errors) {
  __shared__ Claim claim;
  __shared__ unsigned s[1024];
  for (int r = 0;; ++r) {
    if (threadIdx.x == 0) claim = Claim{1 + r % static_cast<int>(blockDim.x / W), r >= rounds};
    block_barrier();
    if (claim.exit) break;
    if (Tasks && claim.count > 0) {
      execute_batch<W, Mode>(s, claim.count, errors);
      block_barrier();
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
    case 0: what = "256 threads, claim loop only"; loop_kernel<32, 0, false><<<blocks, 256>>>(rounds, errors); break;
    case 1: what = "1024 threads, claim loop only"; loop_kernel<32, 0, false><<<blocks, 1024>>>(rounds, errors); break;
    case 2: what = "256 threads, 64-thread tasks, named barriers"; loop_kernel<64, 1, true><<<blocks, 256>>>(rounds, errors); break;
    case 3: what = "256 threads, 4-thread tasks, lane-mask syncwarp"; loop_kernel<4, 0, true><<<blocks, 256>>>(rounds, errors); break;
    case 4: what = "256 threads, 256-thread task, __syncthreads"; loop_kernel<256, 0, true><<<blocks, 256>>>(rounds, errors); break;
    case 5: what = "1024 threads, 1024-thread task, __syncthreads"; loop_kernel<1024, 0, true><<<blocks, 1024>>>(rounds, errors); break;
    case 6: what = "1024 threads, 1024-thread task, bar.sync 1,1024"; loop_kernel<1024, 1, true><<<blocks, 1024>>>(rounds, errors); break;
    case 7: what = "1024 threads, 1024-thread task, bar.sync 0,1024"; loop_kernel<1024, 2, true><<<blocks, 1024>>>(rounds, errors); break;
    case 8: what = "1024 threads, 96-thread tasks, named barriers"; loop_kernel<96, 1, true><<<blocks, 1024>>>(rounds, errors); break;
    case 9: what = "512 threads, 512-thread task, __syncthreads"; loop_kernel<512, 0, true><<<blocks, 512>>>(rounds, errors); break;
    case 10: what = "256 threads, 32-thread tasks"; loop_kernel<32, 0, true><<<blocks, 256>>>(rounds, errors); break;
    default: printf("unknown mode\n"); return 2;
  }
  cudaError_t e = cudaDeviceSynchronize();
  unsigned h = 0;
  cudaMemcpy(&h, errors, sizeof h, cudaMemcpyDeviceToHost);
  printf("mode %d (%s): %s, %u value errors\n", mode, what, cudaGetErrorString(e), h);
  return e == cudaSuccess && h == 0 ? 0 : 1;
}
