// Waiting storage: a fixed array of slots for tasks whose dependencies are not yet
// resolved. A slot is reserved with a compare-and-swap on its state word; where the
// search starts and how it continues is a pluggable insert policy.
#pragma once

#include <cstdint>

#include "runtime/portable.hpp"

namespace apiary {

inline constexpr std::uint32_t kNoSlot = 0xffffffffu;

// Default policy: start at a hash of the caller's hint (spreads concurrent
// reservations over the array), then probe linearly.
struct HashedLinearProbe {
  APIARY_HD static std::uint32_t start(std::uint64_t hint, std::uint32_t capacity) {
    hint ^= hint >> 33;
    hint *= 0xff51afd7ed558ccdull;
    hint ^= hint >> 33;
    return static_cast<std::uint32_t>(hint % capacity);
  }
  APIARY_HD static std::uint32_t next(std::uint32_t slot, std::uint32_t capacity) {
    return slot + 1 == capacity ? 0 : slot + 1;
  }
};

// Reserves a free slot (state 0 -> 1) trying each slot at most once, so a full
// storage is reported (kNoSlot) instead of being searched forever.
template <class Policy = HashedLinearProbe>
APIARY_HD std::uint32_t reserve_slot(std::uint32_t* state, std::uint32_t capacity, std::uint64_t hint) {
  if (capacity == 0) return kNoSlot;
  std::uint32_t s = Policy::start(hint, capacity);
  for (std::uint32_t tried = 0; tried < capacity; ++tried, s = Policy::next(s, capacity)) {
    atomic_ref<std::uint32_t> word(state[s]);
    if (word.load(cuda::std::memory_order_relaxed) != 0) continue;
    std::uint32_t expected = 0;
    if (word.compare_exchange_strong(expected, 1u, cuda::std::memory_order_acquire)) return s;
  }
  return kNoSlot;
}

APIARY_HD inline void release_slot(std::uint32_t* state, std::uint32_t slot) {
  atomic_ref<std::uint32_t>(state[slot]).store(0u, cuda::std::memory_order_release);
}

}  // namespace apiary
