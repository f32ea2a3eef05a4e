#include "runtime/device.hpp"

#include <cuda_runtime_api.h>

#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "runtime/cuda_check.hpp"

namespace apiary {

bool under_compute_sanitizer() {
  // The CUDA 13.0 compute-sanitizer sets NV_SANITIZER_INJECTION_* in the target's
  // environment but no CUDA_INJECTION64_PATH (seen on the device machine, 2026-11-22);
  // the injection path is still checked for tools that use it.
  if (std::getenv("NV_SANITIZER_INJECTION_PORT_BASE") != nullptr) return true;
  const char* injection = std::getenv("CUDA_INJECTION64_PATH");
  return injection != nullptr && std::strstr(injection, "sanitizer") != nullptr;
}

std::optional<std::string> no_device_reason() {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    cudaGetLastError();  // clear the sticky-free error so later calls start clean
    return fmt::format("no usable CUDA device ({})", cudaGetErrorString(err));
  }
  if (count == 0) return std::string("no CUDA device found");
  return std::nullopt;
}

int multiprocessor_count() {
  int device = 0, sms = 0;
  APIARY_CUDA_CHECK(cudaGetDevice(&device));
  APIARY_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return sms;
}

DeviceInfo query_device(int ordinal) {
  if (ordinal < 0) APIARY_CUDA_CHECK(cudaGetDevice(&ordinal));
  cudaDeviceProp p{};
  APIARY_CUDA_CHECK(cudaGetDeviceProperties(&p, ordinal));
  DeviceInfo info;
  info.ordinal = ordinal;
  info.name = p.name;
  info.compute_major = p.major;
  info.compute_minor = p.minor;
  info.multiprocessors = p.multiProcessorCount;
  info.max_threads_per_multiprocessor = p.maxThreadsPerMultiProcessor;
  info.shared_per_block = p.sharedMemPerBlock;
  info.shared_per_block_optin = p.sharedMemPerBlockOptin;
  info.shared_per_multiprocessor = p.sharedMemPerMultiprocessor;
  info.global_memory = p.totalGlobalMem;
  info.l2_bytes = static_cast<std::size_t>(p.l2CacheSize);
  info.memory_bus_bits = p.memoryBusWidth;
  // clockRate and memoryClockRate left cudaDeviceProp in CUDA 13: ask for the attributes.
  APIARY_CUDA_CHECK(cudaDeviceGetAttribute(&info.clock_khz, cudaDevAttrClockRate, ordinal));
  APIARY_CUDA_CHECK(cudaDeviceGetAttribute(&info.memory_clock_khz, cudaDevAttrMemoryClockRate, ordinal));
  APIARY_CUDA_CHECK(cudaDriverGetVersion(&info.driver_version));
  APIARY_CUDA_CHECK(cudaRuntimeGetVersion(&info.runtime_version));
  return info;
}

std::string describe(const DeviceInfo& d) {
  return fmt::format("{} (sm_{}{}, {} SMs, {:.1f} GiB, {:.0f} MHz, CUDA runtime {}.{}, driver {}.{})", d.name,
                     d.compute_major, d.compute_minor, d.multiprocessors,
                     static_cast<double>(d.global_memory) / (1024.0 * 1024.0 * 1024.0), d.clock_khz / 1000.0,
                     d.runtime_version / 1000, (d.runtime_version % 1000) / 10, d.driver_version / 1000,
                     (d.driver_version % 1000) / 10);
}

}  // namespace apiary
