// upload_to_device (runtime/host_upload.hpp): every size class arrives intact — direct
// copies, staged ones of whole and partial pieces and chunks, pinned sources, an offset destination,
// two uploads at once — and a failed copy is one CudaError, not a hang.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <thread>
#include <vector>

#include "runtime/cuda_check.hpp"
#include "runtime/device_buffer.hpp"
#include "runtime/host_upload.hpp"
#include "tests/gpu_test.hpp"

namespace apiary {
namespace {

std::vector<std::uint32_t> pattern(std::size_t count, std::uint32_t seed) {
  std::vector<std::uint32_t> v(count);
  std::uint32_t x = seed;
  for (auto& e : v) e = x = x * 1664525u + 1013904223u;
  return v;
}

TEST(HostUpload, EverySizeArrivesIntact) {
  APIARY_REQUIRE_GPU();
  const std::size_t m = kStagedUploadMin / sizeof(std::uint32_t);
  for (std::size_t count : {std::size_t{1}, std::size_t{1000}, m - 1, m, 2 * m + 3, 6 * m + 12345}) {
    SCOPED_TRACE(count);
    const auto host = pattern(count, static_cast<std::uint32_t>(count));
    const DeviceBuffer<std::uint32_t> d{std::span<const std::uint32_t>(host)};
    EXPECT_EQ(d.to_host(), host);
  }
}

// The staged path at sizes around its pieces (256 KiB) and chunks (2 MiB), and past its
// four buffers (8 MiB), so that every buffer is refilled; many uploads one after the
// other, each waking the helper threads again.
TEST(HostUpload, StagedPathAtEverySize) {
  APIARY_REQUIRE_GPU();
  constexpr std::size_t kib = 1024 / sizeof(std::uint32_t), mib = 1024 * kib;
  const std::size_t counts[] = {1,           1000,          256 * kib - 1, 256 * kib,  256 * kib + 1, 2 * mib - 1,
                                2 * mib,     2 * mib + 1,   8 * mib,       8 * mib + 1, 21 * mib + 7,  3 * mib + 5};
  for (int round = 0; round < 3; ++round)
    for (std::size_t count : counts) {
      SCOPED_TRACE(testing::Message() << "round " << round << ", " << count << " words");
      const auto host = pattern(count, static_cast<std::uint32_t>(count + round));
      DeviceBuffer<std::uint32_t> d(count + 1);
      d.fill_zero();
      detail::staged_upload(d.data(), host.data(), count * sizeof(std::uint32_t));
      const auto back = d.to_host();
      EXPECT_TRUE(std::equal(host.begin(), host.end(), back.begin()));
      EXPECT_EQ(back.back(), 0u) << "written past the end";
    }
}

TEST(HostUpload, PinnedSourceAndOffsetDestination) {
  APIARY_REQUIRE_GPU();
  const std::size_t count = 3 * kStagedUploadMin / sizeof(std::uint32_t) + 17;
  const auto host = pattern(count, 7);
  std::uint32_t* pinned = nullptr;
  APIARY_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&pinned), count * sizeof(std::uint32_t)));
  std::copy(host.begin(), host.end(), pinned);
  DeviceBuffer<std::uint32_t> d(count + 5);
  d.fill_zero();
  upload_to_device(d.data() + 5, pinned, count * sizeof(std::uint32_t));
  cudaFreeHost(pinned);
  const auto back = d.to_host();
  EXPECT_EQ(std::vector<std::uint32_t>(back.begin(), back.begin() + 5), std::vector<std::uint32_t>(5, 0u));
  EXPECT_EQ(std::vector<std::uint32_t>(back.begin() + 5, back.end()), host);
}

TEST(HostUpload, TwoUploadsAtOnce) {
  APIARY_REQUIRE_GPU();
  const std::size_t count = 5 * kStagedUploadMin / sizeof(std::uint32_t) + 1;
  const auto a = pattern(count, 1), b = pattern(count, 2);
  int device = 0;
  APIARY_CUDA_CHECK(cudaGetDevice(&device));
  DeviceBuffer<std::uint32_t> da(count), db(count);
  std::thread other([&] {
    APIARY_CUDA_CHECK(cudaSetDevice(device));
    da.copy_from(a);
  });
  db.copy_from(b);
  other.join();
  EXPECT_EQ(da.to_host(), a);
  EXPECT_EQ(db.to_host(), b);
}

TEST(HostUpload, FailedCopyThrowsAndReturns) {
  APIARY_REQUIRE_GPU();
  const auto host = pattern(3 * kStagedUploadMin / sizeof(std::uint32_t), 3);
  EXPECT_THROW(upload_to_device(nullptr, host.data(), host.size() * sizeof(std::uint32_t)), CudaError);
  // Handled, the error does not come back at the next launch check, and the device is
  // still usable. (Before cuda_check cleared it, the next test's first kernel launch
  // reported this cudaErrorInvalidValue as its own.)
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  const DeviceBuffer<std::uint32_t> d{std::span<const std::uint32_t>(host)};
  EXPECT_EQ(d.to_host(), host);
}

}  // namespace
}  // namespace apiary
