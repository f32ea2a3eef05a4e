#include "tasks/sptrsv/device_plan.hpp"

#include <stdexcept>
#include <string>

namespace apiary::sptrsv {

DevicePlan build_device_plan(const Csr<double>& lower, const Partition& p, const Schedule& s,
                             const SubgraphDag& dag, bool reversed) {
  const index_t n = lower.rows;
  if (n >= kDivideOnLoad)
    throw std::invalid_argument("sptrsv: " + std::to_string(n) +
                                " rows do not fit the device layout (at most 2^30 - 1)");
  if (s.subgraphs != p.parts || dag.subgraphs != p.parts || s.diagonal.size() != p.vertices.size())
    throw std::invalid_argument("sptrsv::build_device_plan: schedule or DAG does not belong to the partition");
  DevicePlan d;
  d.n = n;
  d.subgraphs = p.parts;
  d.n_max = p.n_max;
  d.reversed = reversed;
  d.part_ptr = p.part_ptr;
  d.diagonal = s.diagonal;
  d.external_slots = s.external_slots;
  d.slot_ptr = s.slot_ptr;
  d.edge_ptr = s.edge_ptr;
  d.edge_value = s.edge_value;
  auto user_row = [&](index_t i) { return reversed ? n - 1 - i : i; };

  // Which slot holds the last incoming edge of each vertex (-1: none).
  std::vector<index_t> last_slot(static_cast<std::size_t>(n), -1);
  d.edge_source.resize(s.edges());
  d.edge_target.resize(s.edges());
  for (index_t g = 0; g < p.parts; ++g) {
    const index_t base = p.part_ptr[g];
    d.largest = std::max(d.largest, p.part_ptr[g + 1] - base);
    const index_t first_internal = s.slot_ptr[g] + s.external_slots[g];
    for (index_t t = s.slot_ptr[g]; t < s.slot_ptr[g + 1]; ++t)
      for (index_t e = s.edge_ptr[t]; e < s.edge_ptr[t + 1]; ++e) {
        const index_t k = base + s.edge_target[e];
        last_slot[k] = std::max(last_slot[k], t);
        d.edge_source[e] = t < first_internal ? user_row(p.vertices[s.edge_source[e]]) : s.edge_source[e];
      }
  }
  for (index_t g = 0; g < p.parts; ++g) {
    const index_t base = p.part_ptr[g];
    for (index_t t = s.slot_ptr[g]; t < s.slot_ptr[g + 1]; ++t)
      for (index_t e = s.edge_ptr[t]; e < s.edge_ptr[t + 1]; ++e) {
        const index_t l = s.edge_target[e];
        d.edge_target[e] = l | (last_slot[base + l] == t ? kLastEdge : 0);
      }
  }
  d.load_index.resize(static_cast<std::size_t>(n));
  for (index_t k = 0; k < n; ++k)
    d.load_index[k] = user_row(p.vertices[k]) | (last_slot[k] < 0 ? kDivideOnLoad : 0);

  // Successors from the predecessor lists.
  d.pred_count.resize(static_cast<std::size_t>(p.parts));
  d.succ_ptr.assign(static_cast<std::size_t>(p.parts) + 1, 0);
  for (index_t g = 0; g < p.parts; ++g) {
    d.pred_count[g] = dag.pred_ptr[g + 1] - dag.pred_ptr[g];
    for (index_t k = dag.pred_ptr[g]; k < dag.pred_ptr[g + 1]; ++k) ++d.succ_ptr[dag.pred[k] + 1];
  }
  for (index_t g = 0; g < p.parts; ++g) d.succ_ptr[g + 1] += d.succ_ptr[g];
  d.succ.resize(static_cast<std::size_t>(d.succ_ptr.back()));
  std::vector<index_t> fill(d.succ_ptr.begin(), d.succ_ptr.end() - 1);
  for (index_t g = 0; g < p.parts; ++g)
    for (index_t k = dag.pred_ptr[g]; k < dag.pred_ptr[g + 1]; ++k) d.succ[fill[dag.pred[k]]++] = g;
  d.level = dag.level;
  d.level_ptr = dag.level_ptr;
  d.order = dag.order;
  return d;
}

std::vector<double> solve_with_plan(const DevicePlan& d, std::span<const double> b) {
  if (b.size() != static_cast<std::size_t>(d.n))
    throw std::invalid_argument("sptrsv::solve_with_plan: b has " + std::to_string(b.size()) +
                                " entries, the plan " + std::to_string(d.n) + " rows");
  std::vector<double> x(b.size());
  std::vector<double> local;
  std::vector<double> update;
  for (index_t g = 0; g < d.subgraphs; ++g) {
    const index_t base = d.part_ptr[g];
    const index_t m = d.part_ptr[g + 1] - base;
    local.resize(static_cast<std::size_t>(m));
    for (index_t l = 0; l < m; ++l) {
      const index_t idx = d.load_index[base + l];
      local[l] = b[idx & kIndexMask];
      if (idx & kDivideOnLoad) local[l] /= d.diagonal[base + l];
    }
    const index_t first_internal = d.slot_ptr[g] + d.external_slots[g];
    for (index_t t = d.slot_ptr[g]; t < d.slot_ptr[g + 1]; ++t) {
      const index_t e0 = d.edge_ptr[t], e1 = d.edge_ptr[t + 1];
      update.resize(static_cast<std::size_t>(e1 - e0));
      for (index_t e = e0; e < e1; ++e) {  // every read of the slot first
        const index_t src = d.edge_source[e];
        update[e - e0] = d.edge_value[e] * (t < first_internal ? x[src] : local[src]);
      }
      for (index_t e = e0; e < e1; ++e) {
        const index_t l = d.edge_target[e] & kIndexMask;
        local[l] -= update[e - e0];
        if (d.edge_target[e] & kLastEdge) local[l] /= d.diagonal[base + l];
      }
    }
    for (index_t l = 0; l < m; ++l) x[d.load_index[base + l] & kIndexMask] = local[l];
  }
  return x;
}

}  // namespace apiary::sptrsv
