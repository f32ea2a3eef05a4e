#include "tasks/sptrsv/plan_solve.hpp"

#include <stdexcept>
#include <string>

namespace apiary::sptrsv {

std::vector<double> solve_with_schedule(const Partition& p, const Schedule& s,
                                        std::span<const double> b) {
  const auto n = p.vertices.size();
  if (b.size() != n)
    throw std::invalid_argument("sptrsv::solve_with_schedule: b has " + std::to_string(b.size()) +
                                " entries, the partition " + std::to_string(n) + " vertices");
  if (s.subgraphs != p.parts || s.diagonal.size() != n)
    throw std::invalid_argument(
        "sptrsv::solve_with_schedule: schedule does not belong to the partition");
  std::vector<double> x_permuted(n);
  std::vector<double> local;   // the task's shared memory
  std::vector<double> update;  // one slot's products
  for (index_t g = 0; g < p.parts; ++g) {
    const index_t base = p.part_ptr[g];
    const index_t m = p.part_ptr[g + 1] - base;
    local.resize(static_cast<std::size_t>(m));
    for (index_t l = 0; l < m; ++l) local[l] = b[p.vertices[base + l]];
    const index_t n_ext = s.external_slots[g];
    const index_t first = s.slot_ptr[g];
    auto divide = [&](std::span<const index_t> list) {
      for (index_t l : list) local[l] /= s.diagonal[base + l];
    };
    for (index_t t = first; t < s.slot_ptr[g + 1]; ++t) {
      if (t == first + n_ext)
        divide({s.ready.data() + s.ready_ptr[g],
                static_cast<std::size_t>(s.ready_ptr[g + 1] - s.ready_ptr[g])});
      const bool external = t < first + n_ext;
      const index_t e0 = s.edge_ptr[t], e1 = s.edge_ptr[t + 1];
      update.resize(static_cast<std::size_t>(e1 - e0));
      for (index_t e = e0; e < e1; ++e)
        update[e - e0] =
            s.edge_value[e] * (external ? x_permuted[s.edge_source[e]] : local[s.edge_source[e]]);
      for (index_t e = e0; e < e1; ++e) local[s.edge_target[e]] -= update[e - e0];
      divide({s.division.data() + s.division_ptr[t],
              static_cast<std::size_t>(s.division_ptr[t + 1] - s.division_ptr[t])});
    }
    if (s.internal_slots[g] == 0)  // the ready divisions were not reached inside the loop
      divide({s.ready.data() + s.ready_ptr[g],
              static_cast<std::size_t>(s.ready_ptr[g + 1] - s.ready_ptr[g])});
    for (index_t l = 0; l < m; ++l) x_permuted[base + l] = local[l];
  }
  std::vector<double> x(n);
  for (std::size_t k = 0; k < n; ++k) x[p.vertices[k]] = x_permuted[k];
  return x;
}

}  // namespace apiary::sptrsv
