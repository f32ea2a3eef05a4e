// RAII owner of device memory (cudaMalloc; never managed memory) and pinned host memory.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "runtime/cuda_check.hpp"
#include "runtime/host_upload.hpp"
#include "runtime/mapped_blocks.hpp"

namespace apiary {

template <class T>
class DeviceBuffer {
  static_assert(std::is_trivially_copyable_v<T>, "device buffers hold trivially copyable types");

 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) { allocate(count); }
  explicit DeviceBuffer(std::span<const T> host) {
    allocate(host.size());
    copy_from(host);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  ~DeviceBuffer() { release(); }

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return size_; }
  std::size_t bytes() const { return size_ * sizeof(T); }
  bool empty() const { return size_ == 0; }

  void copy_from(std::span<const T> host, cudaStream_t stream = nullptr) {
    if (host.size() > size_) throw std::length_error("DeviceBuffer::copy_from: source larger than buffer");
    upload_to_device(data_, host.data(), host.size_bytes(), stream);  // returns once they have arrived
  }
  std::vector<T> to_host(cudaStream_t stream = nullptr) const {
    std::vector<T> out(size_);
    if (size_ == 0) return out;
    APIARY_CUDA_CHECK(cudaMemcpyAsync(out.data(), data_, bytes(), cudaMemcpyDeviceToHost, stream));
    APIARY_CUDA_CHECK(cudaStreamSynchronize(stream));
    return out;
  }
  void fill_zero(cudaStream_t stream = nullptr) {
    if (size_ != 0) APIARY_CUDA_CHECK(cudaMemsetAsync(data_, 0, bytes(), stream));
  }

 private:
  void allocate(std::size_t count) {
    if (count == 0) return;
    APIARY_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&data_), count * sizeof(T)));
    size_ = count;
  }
  void release() noexcept {
    if (data_ != nullptr) cudaFree(data_);  // no throw from a destructor
    data_ = nullptr;
    size_ = 0;
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
};

// A device copy of a host vector (synchronous).
template <class T, class Allocator>
DeviceBuffer<T> to_device(const std::vector<T, Allocator>& host) {
  return DeviceBuffer<T>(std::span<const T>(host));
}

// Pinned, device-mapped host memory: the device writes diagnostics here that the host
// can still read after a kernel has trapped and the context is unusable. The block comes
// from, and goes back to, the process's cache (runtime/mapped_blocks.hpp).
template <class T>
class MappedHostBuffer {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  explicit MappedHostBuffer(std::size_t count = 1) : size_(count) {
    host_ = static_cast<T*>(detail::take_mapped_block(count * sizeof(T)));
    std::fill(host_, host_ + count, T{});
    APIARY_CUDA_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&device_), host_, 0));
  }
  MappedHostBuffer(const MappedHostBuffer&) = delete;
  MappedHostBuffer& operator=(const MappedHostBuffer&) = delete;
  ~MappedHostBuffer() { detail::give_mapped_block(host_, size_ * sizeof(T)); }
  T* host() { return host_; }
  T* device() { return device_; }
  std::size_t size() const { return size_; }

 private:
  T* host_ = nullptr;
  T* device_ = nullptr;
  std::size_t size_ = 0;
};

// Pinned, device-mapped host bytes, grown on demand (the contents do not survive
// growing): staging that a kernel reads directly over the bus, so an upload needs no
// copy call and never waits (a copy from pageable memory synchronises).
class MappedHostBytes {
 public:
  MappedHostBytes() = default;
  MappedHostBytes(const MappedHostBytes&) = delete;
  MappedHostBytes& operator=(const MappedHostBytes&) = delete;
  ~MappedHostBytes() { detail::give_mapped_block(host_, capacity_); }
  // At least `bytes` (never null, so that a device pointer exists for an empty upload).
  unsigned char* reserve(std::size_t bytes) {
    bytes = std::max<std::size_t>(bytes, 16);
    if (bytes > capacity_) {
      detail::give_mapped_block(host_, capacity_);
      host_ = device_ = nullptr;
      capacity_ = 0;
      host_ = static_cast<unsigned char*>(detail::take_mapped_block(bytes));
      APIARY_CUDA_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&device_), host_, 0));
      capacity_ = bytes;
    }
    return host_;
  }
  // The device's pointer to the bytes of the last reserve.
  const unsigned char* device() const { return device_; }

 private:
  unsigned char* host_ = nullptr;
  unsigned char* device_ = nullptr;
  std::size_t capacity_ = 0;
};

}  // namespace apiary
