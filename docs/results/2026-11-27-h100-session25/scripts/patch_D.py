import sys
p='schedulers/megakernel.cuh'; s=open(p).read()
def rep(a,b):
    global s
    assert a in s, a[:60]
    s=s.replace(a,b,1)
rep('''  *reinterpret_cast<Item*>(stage) = static_cast<const Item*>(q.items)[pos & (q.capacity - 1)];
  seq.store(pos + q.capacity, cuda::std::memory_order_release);''','''  *reinterpret_cast<Item*>(stage) = static_cast<const Item*>(q.items)[pos & (q.capacity - 1)];
  if (MODE_RELAXED) seq.store(pos + q.capacity, cuda::std::memory_order_relaxed);''')
rep('''  unsigned staged_batch;
  int staged_queue;
};''','''  unsigned staged_batch;
  int staged_queue;
  unsigned long long unfreed;  // waiting claims: 1 + the position whose slot the batch's fence frees
};''')
rep('''  local.streak = 0;
  cuda::atomic_thread_fence(cuda::std::memory_order_release, cuda::thread_scope_device);
  release_freed_slots(v, local.freed);''','''  local.streak = 0;
  cuda::atomic_thread_fence(cuda::std::memory_order_release, cuda::thread_scope_device);
  if constexpr (waiting_claims<P> && !MODE_RELAXED) {
    if (local.unfreed != 0) {
      const QueueView& q = v.queues[0];
      const unsigned long long pos = local.unfreed - 1;
      atomic_ref<unsigned long long>(q.seq[pos & (q.capacity - 1)]).store(pos + q.capacity, cuda::std::memory_order_relaxed);
      local.unfreed = 0;
    }
  }
  release_freed_slots(v, local.freed);''')
rep('''    if ((++local.streak & 63) == 0)  // progress for the watchdog''','''    if constexpr (waiting_claims<P> && !MODE_RELAXED) {
      if (local.unfreed != 0) {
        const QueueView& q = v.queues[0];
        const unsigned long long pos = local.unfreed - 1;
        atomic_ref<unsigned long long>(q.seq[pos & (q.capacity - 1)]).store(pos + q.capacity, cuda::std::memory_order_release);
        local.unfreed = 0;
      }
    }
    if ((++local.streak & 63) == 0)  // progress for the watchdog''')
rep('''    local.staged_next = 0;
    local.staged_end = 0;
    atomic_ref<int>(v.control->live_blocks)''','''    local.staged_next = 0;
    local.staged_end = 0;
    local.unfreed = 0;
    atomic_ref<int>(v.control->live_blocks)''')
rep('''        claim.take = claim.staged ? 0 : claim.count;''','''        claim.take = claim.staged ? 0 : claim.count;
        if constexpr (waiting_claims<P> && !MODE_RELAXED) {
          if (claim.staged) local.unfreed = claim.first + 1;
        }''')
mode=sys.argv[1]
s=s.replace('MODE_RELAXED', 'true' if mode=='R' else 'false')
open(p,'w').write(s)
