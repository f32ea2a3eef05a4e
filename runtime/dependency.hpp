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
//    from that same atomic's result (or, when it already saw a count of 1, from that
//    load: see resolve_counter);
//  * the call that makes the owner also takes the slot back out (word -= slot · 2^32),
//    so the word returns to 0 and the dependency can be reused (cyclic programs),
//    provided no predecessor of the next use resolves before the task of this use moved.
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

// The owner's last step: the slot comes out of the word, which returns to zero and can be
// used again. No ordering needed: the next use's operations come after the task moved.
APIARY_HD inline void clear_slot(Dependency& d, std::uint32_t slot) {
  atomic_ref<unsigned long long>(d.word).fetch_sub(static_cast<unsigned long long>(slot) << 32,
                                                   cuda::std::memory_order_relaxed);
}

// Decrements the count. True when this call took it to zero and so owns the task, whose
// slot it then returns in *slot (the word is back to zero).
//
// The last predecessor of an announced task needs no read-modify-write round trip: when
// the count reads 1, every other predecessor has resolved (a count only reaches 1 after
// the announcement), so nobody else changes the word before this caller, who owns the
// task. Its acquire load synchronizes with the creator's and the other predecessors'
// release RMWs; the decrement (with the slot's removal) is then fire-and-forget. What it
// omits is a release: this predecessor's own writes are published by however the task
// continues — the releasing block runs it (the same multiprocessor: its barriers order
// them), or a queue push, or a later release fence of that block, each a release that
// follows them. An RMW with acquire-release semantics costs a device-scope fence (about
// 0.4 us on an H100) on top of the round trip.
APIARY_HD inline bool resolve_counter(Dependency& d, std::uint32_t* slot) {
  atomic_ref<unsigned long long> word(d.word);
  const DependencyState seen = decode(word.load(cuda::std::memory_order_acquire));
  if (seen.count == 1) {
    word.fetch_sub((static_cast<unsigned long long>(seen.slot) << 32) + 1, cuda::std::memory_order_relaxed);
    *slot = seen.slot;
    return true;
  }
  const DependencyState old = decode(word.fetch_sub(1, cuda::std::memory_order_acq_rel));
  if (old.count != 1) return false;
  *slot = old.slot;
  clear_slot(d, old.slot);
  return true;
}

// The whole creator side for a task with n predecessors (n >= 0): store the task
// (write_slot returns its slot, written before the announcement so that its owner finds
// it complete), then announce n and publish the slot together. Returns true when the
// caller owns the task at once (every predecessor had already resolved; the word is then
// back to zero).
template <class WriteSlot>
APIARY_HD bool create_behind(Dependency& d, int n, WriteSlot&& write_slot, std::uint32_t* slot) {
  *slot = write_slot();
  const unsigned long long add = (static_cast<unsigned long long>(*slot) << 32) + static_cast<unsigned long long>(n);
  const DependencyState old = decode(atomic_ref<unsigned long long>(d.word).fetch_add(add, cuda::std::memory_order_acq_rel));
  if (old.count + n != 0) return false;
  clear_slot(d, *slot);
  return true;
}

}  // namespace apiary
