// Device query and the "is there a usable GPU" check used by the CLI and GPU tests.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace apiary {

struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  int compute_major = 0;
  int compute_minor = 0;
  int multiprocessors = 0;
  int max_threads_per_multiprocessor = 0;
  std::size_t shared_per_block = 0;         // default limit (48 KiB)
  std::size_t shared_per_block_optin = 0;   // after cudaFuncSetAttribute
  std::size_t shared_per_multiprocessor = 0;
  int clock_khz = 0;
  int memory_clock_khz = 0;
  int memory_bus_bits = 0;
  std::size_t global_memory = 0;
  std::size_t l2_bytes = 0;
  int driver_version = 0;
  int runtime_version = 0;
};

// Why no GPU can be used (no driver, no device, ...), or nothing when one can.
// Never throws and never prints: callers decide how to say it.
std::optional<std::string> no_device_reason();

// Properties of the current device; throws CudaError when there is none.
DeviceInfo query_device(int ordinal = -1);

// Multiprocessors of the current device: one attribute query, not query_device's whole
// property set. Throws CudaError when there is no device.
int multiprocessor_count();

std::string describe(const DeviceInfo& info);  // one line: name, SMs, memory, clocks

// True when the process runs under compute-sanitizer (seen in its environment). The sanitizer runs one kernel at a time, so the time-sliced and
// controller schedulers start no watchdog guard beside their workers under it (a guard
// spinning there kept every worker from starting: H200, 2026-11-22).
bool under_compute_sanitizer();

}  // namespace apiary
