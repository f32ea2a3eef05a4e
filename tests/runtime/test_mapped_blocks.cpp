// The cache of pinned, mapped host blocks (runtime/mapped_blocks.hpp) behind
// MappedHostBuffer and MappedHostBytes: a block given back serves the next taker of its
// size class, a reused buffer starts zeroed like a fresh one, and the device reaches
// the host bytes through the mapped pointer.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <set>
#include <vector>

#include "runtime/cuda_check.hpp"
#include "runtime/device_buffer.hpp"
#include "runtime/mapped_blocks.hpp"
#include "tests/gpu_test.hpp"

namespace apiary {
namespace {

TEST(MappedBlocks, GivenBackBlockServesItsSizeClass) {
  APIARY_REQUIRE_GPU();
  // Size classes no other test of this process uses (4 and 8 MiB), so that the cache
  // holds only this test's blocks of them.
  constexpr std::size_t kMiB = std::size_t{1} << 20;
  void* a = detail::take_mapped_block(3 * kMiB);  // class 4 MiB
  detail::give_mapped_block(a, 3 * kMiB);
  void* b = detail::take_mapped_block(4 * kMiB);  // class 4 MiB as well: the same block
  EXPECT_EQ(b, a);
  void* c = detail::take_mapped_block(3 * kMiB);  // the cache holds no other 4 MiB block
  EXPECT_NE(c, b);
  void* d = detail::take_mapped_block(5 * kMiB);  // another class: never the cached blocks
  EXPECT_NE(d, b);
  EXPECT_NE(d, c);
  for (void* block : {b, c}) detail::give_mapped_block(block, 3 * kMiB);
  detail::give_mapped_block(d, 5 * kMiB);
  // Both 4 MiB blocks are cached now: two takers get two distinct ones of them.
  const std::set<void*> again{detail::take_mapped_block(4 * kMiB), detail::take_mapped_block(3 * kMiB + 1)};
  EXPECT_EQ(again, (std::set<void*>{b, c}));
  for (void* block : again) detail::give_mapped_block(block, 4 * kMiB);
}

TEST(MappedBlocks, ReusedBufferStartsZeroedAndIsMapped) {
  APIARY_REQUIRE_GPU();
  const std::uint64_t* first = nullptr;
  {
    MappedHostBuffer<std::uint64_t> buffer(40);
    for (std::size_t i = 0; i < buffer.size(); ++i) buffer.host()[i] = 0x1234 + i;
    first = buffer.host();
  }
  MappedHostBuffer<std::uint64_t> buffer(40);
  EXPECT_EQ(buffer.host(), first) << "the block was not reused";
  for (std::size_t i = 0; i < buffer.size(); ++i) ASSERT_EQ(buffer.host()[i], 0u) << i;
  // The device writes the host bytes through the mapped pointer.
  APIARY_CUDA_CHECK(cudaMemset(buffer.device(), 0xab, 40 * sizeof(std::uint64_t)));
  APIARY_CUDA_CHECK(cudaDeviceSynchronize());
  for (std::size_t i = 0; i < buffer.size(); ++i) ASSERT_EQ(buffer.host()[i], 0xababababababababull) << i;
}

}  // namespace
}  // namespace apiary
