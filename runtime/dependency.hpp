// Individual dependencies: hold one task back until n other tasks have resolved it.
//
// Protocol (the dynamic-dependencies design; see docs/architecture.md):
//  * the counter starts at 0 and predecessors resolve by decrementing it, so a
//    predecessor that finishes before the task exists drives it negative;
//  * the creator announces the task with n + 1 (its own extra resolve keeps the
//    counter above zero while it writes the task into waiting storage), writes the
//    task, records the slot, then resolves once itself;
//  * whoever brings the counter to zero owns the task and moves it to its queue.
// The counter returns to 0 after each use, so a dependency can be reused (cyclic
// programs), provided no predecessor of the next use resolves before the task of
// this use was moved.
#pragma once

#include <cstdint>

#include "runtime/portable.hpp"

namespace apiary {

struct Dependency {
  int counter = 0;
  std::uint32_t slot = 0;  // waiting-storage slot of the task it holds back
};

// Decrements; true when this call brought the counter to zero and so must move the task.
APIARY_HD inline bool resolve_counter(Dependency& d) {
  return atomic_ref<int>(d.counter).fetch_sub(1, cuda::std::memory_order_acq_rel) == 1;
}

// Announces a task with n predecessors (n >= 0): adds n + 1.
APIARY_HD inline void announce(Dependency& d, int n) {
  atomic_ref<int>(d.counter).fetch_add(n + 1, cuda::std::memory_order_acq_rel);
}

// The whole creator side: announce, store the task (write_slot returns its slot),
// record the slot, resolve once. Returns true when the caller now owns the task
// (every predecessor had already resolved) and must move it to its queue.
template <class WriteSlot>
APIARY_HD bool create_behind(Dependency& d, int n, WriteSlot&& write_slot) {
  announce(d, n);
  d.slot = write_slot();
  return resolve_counter(d);
}

}  // namespace apiary
