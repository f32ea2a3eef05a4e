#!/usr/bin/env bash
# Experiment (session 42): seeds of up to 1 KiB travel in prepare_run's parameters instead of mapped host memory.
python3 - <<'PY'
p='runtime/runtime.cuh'
s=open(p).read()
def rep(a,b):
    global s
    assert s.count(a)==1, a
    s=s.replace(a,b)
rep("""    std::uint32_t capacity;
    std::uint32_t seeded;
  } queues[Types];
};""","""    std::uint32_t capacity;
    std::uint32_t seeded;
    std::uint32_t inline_offset;  // where seeds is null: its seeds in inline_seeds
  } queues[Types];
  alignas(16) unsigned char inline_seeds[1024];
};""")
rep("""    const auto& s = r.queues[q];
    for (std::uint64_t i = first; i < s.capacity; i += stride)""","""    const auto& s = r.queues[q];
    const unsigned char* seeds = s.seeds != nullptr ? s.seeds : r.inline_seeds + s.inline_offset;
    for (std::uint64_t i = first; i < s.capacity; i += stride)""")
rep("""      reinterpret_cast<uint4*>(s.items)[i] = reinterpret_cast<const uint4*>(s.seeds)[i];
    for (std::uint64_t i = words * sizeof(uint4) + first; i < s.seed_bytes; i += stride) s.items[i] = s.seeds[i];""",
"""      reinterpret_cast<uint4*>(s.items)[i] = reinterpret_cast<const uint4*>(seeds)[i];
    for (std::uint64_t i = words * sizeof(uint4) + first; i < s.seed_bytes; i += stride) s.items[i] = seeds[i];""")
rep("""    unsigned char* staged = seed_staging_.reserve(seed_bytes);
    const unsigned char* staged_device = seed_staging_.device();""","""    const bool in_params = seed_bytes <= sizeof(r.inline_seeds);
    unsigned char* staged = in_params ? r.inline_seeds : seed_staging_.reserve(seed_bytes);
    const unsigned char* staged_device = in_params ? nullptr : seed_staging_.device();
    std::uint32_t offset = 0;""")
rep("""      r.queues[q] = {items_[q].data(), seq_[q].data(), staged_device, seeds_[q].size(), capacity_[q], n};""",
"""      r.queues[q] = {items_[q].data(), seq_[q].data(), staged_device, seeds_[q].size(), capacity_[q], n, offset};
      offset += static_cast<std::uint32_t>(align16(seeds_[q].size()));""")
rep("""      staged += align16(seeds_[q].size());
      staged_device += align16(seeds_[q].size());""","""      staged += align16(seeds_[q].size());
      if (!in_params) staged_device += align16(seeds_[q].size());""")
open(p,'w').write(s)
PY
