// Host emulation of the GPU RCM (rcm_gpu.hpp): the level loop of rcm_gpu.cu step by step,
// with the expansion of each level run in reverse order so that the claimed order of a
// new level differs from the serial one and the sort has real work to do, as on the GPU
// where the order of the atomic claims is arbitrary.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

#include "tasks/rcm/level_keys.hpp"
#include "tasks/rcm/prepare.hpp"
#include "tasks/rcm/rcm_driver.hpp"
#include "tasks/rcm/rcm_gpu.hpp"

namespace apiary::rcm {

namespace {

constexpr std::uint32_t kUnclaimed = 0xffffffffu;

class HostEngine {
 public:
  HostEngine(const sparse::Csr<double>& g, bool force_two_pass)
      : g_(g),
        n_(g.rows),
        degree_(static_cast<std::size_t>(n_)),
        mark_(static_cast<std::size_t>(n_), 0),
        parent_(static_cast<std::size_t>(n_), kUnclaimed),
        force_two_pass_(force_two_pass) {
    for (index_t v = 0; v < n_; ++v) {
      degree_[v] = degree_without_loops(g, v);
      max_degree_ = std::max(max_degree_, degree_[v]);
      least_ = degree_[v] < degree_[least_] ? v : least_;
    }
  }

  index_t degree(index_t v) const { return degree_[v]; }
  index_t least_degree_vertex() const { return least_; }
  bool two_pass_used() const { return two_pass_used_; }

  BfsLevels bfs(index_t root) {
    ++stamp_;
    queue_.assign(1, root);
    mark_[root] = stamp_;
    index_t begin = 0, end = 1, levels = 1;
    last_begin_ = 0;
    while (true) {
      for (index_t p = end - 1; p >= begin; --p) {
        const index_t u = queue_[p];
        for (index_t k = g_.row_end(u) - 1; k >= g_.row_begin(u); --k) {
          const index_t v = g_.col[k];
          if (mark_[v] != stamp_) {
            mark_[v] = stamp_;
            queue_.push_back(v);
          }
        }
      }
      const index_t next_end = static_cast<index_t>(queue_.size());
      if (next_end == end) break;
      last_begin_ = end;
      begin = end;
      end = next_end;
      ++levels;
    }
    last_end_ = end;
    return {levels, end};
  }

  index_t min_degree_in_last_level() const {
    std::uint64_t best = ~std::uint64_t{0};
    for (index_t i = last_begin_; i < last_end_; ++i) {
      const index_t v = queue_[i];
      best = std::min(best, static_cast<std::uint64_t>(degree_[v]) << 32 | static_cast<std::uint32_t>(v));
    }
    return static_cast<index_t>(best & 0xffffffffu);
  }

  CmOrder cuthill_mckee(index_t root, index_t* out_end) {
    queue_.assign(1, root);
    parent_[root] = 0;
    index_t begin = 0, end = 1, levels = 1;
    while (true) {
      for (index_t p = end - 1; p >= begin; --p) {
        const index_t u = queue_[p];
        const auto pos = static_cast<std::uint32_t>(p);
        for (index_t k = g_.row_end(u) - 1; k >= g_.row_begin(u); --k) {
          const index_t v = g_.col[k];
          if (parent_[v] > pos) {
            const std::uint32_t old = parent_[v];
            parent_[v] = pos;
            if (old == kUnclaimed) queue_.push_back(v);
          }
        }
      }
      const index_t next_end = static_cast<index_t>(queue_.size());
      if (next_end == end) break;
      sort_level(begin, end, next_end);
      begin = end;
      end = next_end;
      ++levels;
    }
    std::reverse_copy(queue_.begin(), queue_.end(), out_end - static_cast<std::ptrdiff_t>(queue_.size()));
    return {levels, static_cast<index_t>(queue_.size())};
  }

 private:
  // Orders queue_[end, next_end) (children of the level [begin, end)) as the GPU does.
  void sort_level(index_t begin, index_t end, index_t next_end) {
    const index_t count = next_end - end;
    if (count < 2) return;
    const LevelKeyLayout layout = level_key_layout(end - begin, max_degree_, n_, force_two_pass_);
    const auto first = queue_.begin() + end;
    const auto last = queue_.begin() + next_end;
    const auto rel = [&](index_t v) { return parent_[v] - static_cast<std::uint32_t>(begin); };
    if (layout.single_pass) {
      std::vector<std::uint64_t> keys;
      keys.reserve(static_cast<std::size_t>(count));
      for (auto it = first; it != last; ++it)
        keys.push_back(layout.pack(rel(*it), static_cast<std::uint32_t>(degree_[*it]), static_cast<std::uint32_t>(*it)));
      std::sort(keys.begin(), keys.end());
      for (index_t i = 0; i < count; ++i) first[i] = static_cast<index_t>(layout.vertex_of(keys[i]));
    } else {
      two_pass_used_ = true;
      std::stable_sort(first, last);
      std::stable_sort(first, last, [&](index_t x, index_t y) {
        return layout.pack_parent_degree(rel(x), static_cast<std::uint32_t>(degree_[x])) <
               layout.pack_parent_degree(rel(y), static_cast<std::uint32_t>(degree_[y]));
      });
    }
  }

  const sparse::Csr<double>& g_;
  index_t n_;
  std::vector<index_t> degree_;
  index_t max_degree_ = 0;
  index_t least_ = 0;  // least (degree, index)
  std::vector<std::uint32_t> mark_;
  std::vector<std::uint32_t> parent_;
  std::vector<index_t> queue_;
  std::uint32_t stamp_ = 0;
  index_t last_begin_ = 0, last_end_ = 0;
  bool force_two_pass_ = false;
  bool two_pass_used_ = false;
};

}  // namespace

RcmGpuResult rcm_level_emulation(const sparse::Csr<double>& a, const RcmGpuOptions& options) {
  const detail::PreparedGraph p = detail::prepare_graph(a);
  RcmGpuResult r;
  r.symmetrized = p.symmetrized;
  r.symmetrize_ms = p.symmetrize_ms;
  const auto t0 = std::chrono::steady_clock::now();
  HostEngine e(*p.graph, options.force_two_pass_sort);
  r.setup_ms = detail::ms_since(t0);
  drive_into(e, p.graph->rows, options.start_nodes, r);
  return r;
}

}  // namespace apiary::rcm
