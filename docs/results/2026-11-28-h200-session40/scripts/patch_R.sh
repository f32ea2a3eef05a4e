#!/usr/bin/env bash
# await_claim's pollers poll the sequence number with relaxed loads and acquire by a fence once they see it
# (an acquire load per poll may invalidate the SM's L1 under a task running beside the poller).
python3 - <<'PY'
p = 'schedulers/megakernel.cuh'
s = open(p).read()
old = """    if (seq.load(cuda::std::memory_order_acquire) == pos + 1) {
      if (!take_over()) return;
"""
new = """    if (seq.load(cuda::std::memory_order_relaxed) == pos + 1) {
      cuda::atomic_thread_fence(cuda::std::memory_order_acquire, cuda::thread_scope_device);
      if (!take_over()) return;
"""
assert old in s
s = s.replace(old, new, 1)
open(p, 'w').write(s)
PY
