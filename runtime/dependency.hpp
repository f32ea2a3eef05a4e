// Individual dependencies: hold one task back until n other tasks have resolved it.
//
// Protocol (the dynamic-dependencies design; see docs/architecture.md §2.5). One 64-bit
// word holds both the count and the waiting-storage slot of the held task, as the
// integer  word = slot · 2^32 + count  (mod 2^64), with count a signed 32-bit number:
//  * predecessors resolve by adding -1, so a predecessor that finishes before the task
//    exists drives the count negative (the borrow from the high half is part of the
//    encoding: decode() recovers count and slot exactly);
//  * the creator stores the task in waiting storage first, then announces it and
//    publishes its slot in one atomic: word += n + slot · 2^32. If the count then reads
//    0, every predecessor had already resolved and the creator owns the task;
//  * otherwise the resolve that takes the count from 1 to 0 owns it, and reads the slot
//    from that same atomic's result: no second round trip to memory;
//  * the owner takes the slot back out (word -= slot · 2^32), so the word returns to 0
//    and the dependency can be reused (cyclic programs), provided no predecessor of the
//    next use resolves before the task of this use was moved.
// A count can only reach 1 after the announcement (before it the count is <= 0), so
// exactly one caller becomes the owner.
#pragma once

#include <cstdint>

#include "runtime/portable.hpp"

namespace apiary {

struct alignas(8) Dependency {
  unsigned long long word = 0;
};

struct DependencyState {
  int count = 0;           // announced predecessors minus resolves so far
  std::uint32_t slot = 0;  // published slot (0 before the announcement)
};

APIARY_HD constexpr DependencyState decode(unsigned long long word) {
  const int count = static_cast<int>(static_cast<std::uint32_t>(word));
  const unsigned long long rest = word - static_cast<unsigned long long>(static_cast<long long>(count));
  return {count, static_cast<std::uint32_t>(rest >> 32)};
}

// Decrements the count. True when this call took it to zero and so owns the task, whose
// slot it then returns in *slot.
APIARY_HD inline bool resolve_counter(Dependency& d, std::uint32_t* slot) {
  const DependencyState old = decode(atomic_ref<unsigned long long>(d.word).fetch_sub(1, cuda::std::memory_order_acq_rel));
  if (old.count != 1) return false;
  *slot = old.slot;
  return true;
}

// The whole creator side for a task with n predecessors (n >= 0): store the task
// (write_slot returns its slot, written before the announcement so that its owner finds
// it complete), then announce n and publish the slot together. Returns true when the
// caller owns the task at once (every predecessor had already resolved).
template <class WriteSlot>
APIARY_HD bool create_behind(Dependency& d, int n, WriteSlot&& write_slot, std::uint32_t* slot) {
  *slot = write_slot();
  const unsigned long long add = (static_cast<unsigned long long>(*slot) << 32) + static_cast<unsigned long long>(n);
  const DependencyState old = decode(atomic_ref<unsigned long long>(d.word).fetch_add(add, cuda::std::memory_order_acq_rel));
  return old.count + n == 0;
}

// The owner, once it has read the task out of its slot: the word returns to zero. No
// ordering needed: the next use's operations come after the task has moved.
APIARY_HD inline void clear_slot(Dependency& d, std::uint32_t slot) {
  atomic_ref<unsigned long long>(d.word).fetch_sub(static_cast<unsigned long long>(slot) << 32,
                                                   cuda::std::memory_order_relaxed);
}

}  // namespace apiary
