// Probe: 24 MB host-to-device, pageable cudaMemcpy vs upload_to_device vs pinned, and the parallel memcpy alone.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>
#include <cuda_runtime_api.h>
#include "runtime/host_upload.hpp"
using clk = std::chrono::steady_clock;
static double ms(clk::time_point a) { return std::chrono::duration<double, std::milli>(clk::now() - a).count(); }
int main() {
  const size_t bytes = 24u << 20;
  std::vector<unsigned char> host(bytes, 1);
  void* d = nullptr; cudaMalloc(&d, bytes);
  void* pinned = nullptr; cudaMallocHost(&pinned, bytes);
  for (int rep = 0; rep < 4; ++rep) {
    auto t = clk::now(); cudaMemcpy(d, host.data(), bytes, cudaMemcpyHostToDevice); double a = ms(t);
    t = clk::now(); apiary::upload_to_device(d, host.data(), bytes); double b = ms(t);
    t = clk::now(); cudaMemcpy(d, pinned, bytes, cudaMemcpyHostToDevice); double c = ms(t);
    t = clk::now(); std::memcpy(pinned, host.data(), bytes); double e = ms(t);
    t = clk::now();
    { std::vector<std::jthread> th; for (int i = 0; i < 8; ++i) th.emplace_back([&, i] { std::memcpy((char*)pinned + i * (bytes / 8), host.data() + i * (bytes / 8), bytes / 8); }); }
    double f = ms(t);
    std::printf("rep %d: pageable cudaMemcpy %.2f ms, upload_to_device %.2f ms, pinned cudaMemcpy %.2f ms, memcpy 1 thread %.2f ms, memcpy 8 threads %.2f ms\n", rep, a, b, c, e, f);
  }
  return 0;
}
