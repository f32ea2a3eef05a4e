// Host emulation of the TASSL solve: what one GPU task per sub-graph will do, run
// serially, so that a schedule can be shown to compute L x = b before any device code
// exists. The device version will run the sub-graphs of one sub-graph level concurrently;
// running them in index order here is equivalent because the partition is feasible.
#pragma once

#include <span>
#include <vector>

#include "tasks/sptrsv/partition.hpp"
#include "tasks/sptrsv/schedule.hpp"

namespace apiary::sptrsv {

// x with L x = b, for the L that p and s were built from; b and x in the original order.
// Each slot is applied as a SIMD step would: every edge of the slot reads its source
// before any edge of the slot writes. std::invalid_argument when b has the wrong length
// or s does not belong to p.
std::vector<double> solve_with_schedule(const Partition& p, const Schedule& s,
                                        std::span<const double> b);

}  // namespace apiary::sptrsv
