// Pinned, device-mapped host blocks, reused across the objects that need them
// (MappedHostBuffer, MappedHostBytes). cudaHostAlloc pins and maps pages on every call:
// a Runtime needs two such blocks, and its construction took about 1 ms of every solver's
// set-up (H200 host, session 29), tens of times the rest of a small solver's uploads. A
// block given back is kept for the next taker of its size class instead.
#pragma once

#include <cstddef>

namespace apiary::detail {

// A block of at least `bytes` (rounded up to a power of two from 256 on): from the
// cache (the one of its size given back last), or pinned and mapped now
// (cudaHostAllocMapped | cudaHostAllocPortable). Thread-safe; throws CudaError.
void* take_mapped_block(std::size_t bytes);

// Returns a block of take_mapped_block(bytes) to the cache; the cache keeps a bounded
// number of blocks and frees the rest. Never throws (called by destructors). The next
// taker may write the block at once: give back only a block that no pending device work
// reads or writes (the owners here synchronise their runs and copies before they are
// destroyed or grown; cudaFreeHost would have waited for the device instead).
void give_mapped_block(void* block, std::size_t bytes) noexcept;

}  // namespace apiary::detail
