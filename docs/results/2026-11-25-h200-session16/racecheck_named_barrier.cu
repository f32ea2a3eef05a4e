// Does racecheck report a hazard for: t0 writes shared; barrier.sync 0; all read;
// warps 0-1 do barrier.sync 1, 64 (a 64-thread task's barrier); barrier.sync 0; repeat?
#include <cstdio>
#include <cstdlib>
__device__ inline void bar0(int mode) {
  if (mode == 2) asm volatile("barrier.sync 0, %0;" ::"r"(blockDim.x) : "memory");
  else asm volatile("barrier.sync 0;" ::: "memory");
}
__device__ inline void bar_named(int id, int n) { asm volatile("barrier.sync %0, %1;" ::"r"(id), "r"(n) : "memory"); }
__global__ void k(int* out, int mode) {
  __shared__ int word;
  int acc = 0;
  for (int round = 0; round < 8; ++round) {
    if (threadIdx.x == 0) word = round;
    bar0(mode);
    acc += word;
    if (mode >= 1 && threadIdx.x < 64) bar_named(1, 64);
    bar0(mode);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
int main(int argc, char** argv) {
  const int only = argc > 1 ? atoi(argv[1]) : -1;
  int* out;
  cudaMalloc(&out, 4 * 256 * sizeof(int));
  for (int mode = 0; mode < 3; ++mode) {
    if (only >= 0 && mode != only) continue;
    k<<<4, 256>>>(out, mode);
    printf("mode %d: %s\n", mode, cudaGetErrorString(cudaDeviceSynchronize()));
  }
  return 0;
}
