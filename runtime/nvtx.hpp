// NVTX ranges in Apiary's own domain ("apiary"), so that Nsight Systems shows every run
// (and the time-sliced scheduler's phases) on its timeline: `nsys profile -t cuda,nvtx apiary ...`. NVTX 3
// is header-only and part of the CUDA toolkit; without a tool attached a range costs a
// branch, so the ranges are always compiled in.
#pragma once

#include <nvtx3/nvtx3.hpp>

namespace apiary {

struct NvtxDomain {
  static constexpr const char* name{"apiary"};
};

// A range from construction to destruction: NvtxRange r{"apiary run: megakernel"};
using NvtxRange = nvtx3::scoped_range_in<NvtxDomain>;

}  // namespace apiary
