// Expansion of a generic config into its execution tree, and the check of a run
// against that tree (both host-only, so that they are tested without a GPU).
#include "tasks/generic/expand.hpp"

#include <algorithm>
#include <random>
#include <sstream>

#include "tasks/generic/generic.hpp"

namespace apiary::generic {

namespace {

// The top 53 bits as a double in [0, 1): identical on every standard library, unlike
// std::uniform_real_distribution, whose algorithm is unspecified.
double uniform01(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

class Builder {
 public:
  explicit Builder(const GenericConfig& config) : config_(config) {
    tree_.name = config.name;
    tree_.types = config.types;
  }

  // Refuses before growing: the limit is also what keeps a runaway config from
  // exhausting the host memory.
  void reserve(std::uint64_t more) const {
    if (tree_.size() + more > kMaxInstances)
      throw GenericConfigError(config_.name + ": the execution tree grows beyond " + std::to_string(kMaxInstances) +
                               " instances (the limit); lower the root counts, fanouts or probabilities");
  }

  std::uint32_t add(int type, const std::vector<std::uint32_t>& parents) {
    const auto index = static_cast<std::uint32_t>(tree_.size());
    std::uint32_t depth = 0;
    for (std::uint32_t p : parents) depth = std::max(depth, tree_.depth[p] + 1);
    tree_.type.push_back(static_cast<std::uint32_t>(type));
    tree_.depth.push_back(depth);
    tree_.creator.push_back(parents.empty() ? kNoCreator : parents.front());
    tree_.parents.insert(tree_.parents.end(), parents.begin(), parents.end());
    tree_.parent_offsets.push_back(static_cast<std::uint32_t>(tree_.parents.size()));
    return index;
  }

  ExecutionTree build() {
    for (const RootSpec& r : config_.roots) {
      reserve(r.count);
      for (std::uint64_t k = 0; k < r.count; ++k) add(r.type, {});
    }
    std::mt19937_64 rng(config_.seed);
    std::vector<std::uint32_t> fanout_children;
    std::vector<std::uint32_t> join_parents;
    // The tree grows while it is walked: children are appended behind the walk.
    for (std::size_t i = 0; i < tree_.size(); ++i) {
      const auto self = static_cast<std::uint32_t>(i);
      const int type = static_cast<int>(tree_.type[i]);
      fanout_children.clear();
      for (const TransitionSpec& t : config_.transitions) {
        if (t.join || t.from.front() != type) continue;
        if (uniform01(rng) >= t.probability) continue;
        reserve(t.fanout);
        for (std::uint32_t k = 0; k < t.fanout; ++k) fanout_children.push_back(add(t.to, {self}));
      }
      for (const TransitionSpec& t : config_.transitions) {
        if (!t.join) continue;
        const bool all_present = std::all_of(t.from.begin(), t.from.end(), [&](int listed) {
          return std::any_of(fanout_children.begin(), fanout_children.end(),
                             [&](std::uint32_t c) { return static_cast<int>(tree_.type[c]) == listed; });
        });
        if (!all_present) continue;
        if (uniform01(rng) >= t.probability) continue;
        join_parents.clear();
        for (std::uint32_t c : fanout_children)
          if (std::find(t.from.begin(), t.from.end(), static_cast<int>(tree_.type[c])) != t.from.end())
            join_parents.push_back(c);
        reserve(1);
        add(t.to, join_parents);
      }
    }
    build_children();
    return std::move(tree_);
  }

 private:
  // Children from the parent lists; walking children in index order keeps each
  // parent's list ascending.
  void build_children() {
    const std::size_t n = tree_.size();
    tree_.child_offsets.assign(n + 1, 0);
    for (std::uint32_t p : tree_.parents) ++tree_.child_offsets[p + 1];
    for (std::size_t i = 0; i < n; ++i) tree_.child_offsets[i + 1] += tree_.child_offsets[i];
    tree_.children.resize(tree_.parents.size());
    std::vector<std::uint32_t> fill(tree_.child_offsets.begin(), tree_.child_offsets.end() - 1);
    for (std::size_t c = 0; c < n; ++c)
      for (std::uint32_t k = tree_.parent_offsets[c]; k < tree_.parent_offsets[c + 1]; ++k)
        tree_.children[fill[tree_.parents[k]]++] = static_cast<std::uint32_t>(c);
  }

  const GenericConfig& config_;
  ExecutionTree tree_;
};

}  // namespace

std::uint32_t ExecutionTree::max_depth() const {
  return depth.empty() ? 0 : *std::max_element(depth.begin(), depth.end());
}

std::vector<std::size_t> ExecutionTree::instances_per_type() const {
  std::vector<std::size_t> n(types.size(), 0);
  for (std::uint32_t t : type) ++n[t];
  return n;
}

std::vector<std::size_t> ExecutionTree::instances_per_depth() const {
  std::vector<std::size_t> n(size() == 0 ? 0 : max_depth() + 1, 0);
  for (std::uint32_t d : depth) ++n[d];
  return n;
}

std::uint64_t ExecutionTree::total_flops() const {
  std::uint64_t f = 0;
  for (std::uint32_t t : type) f += types[t].flops;
  return f;
}

ExecutionTree expand(const GenericConfig& config) { return Builder(config).build(); }

std::string describe(const ExecutionTree& tree) {
  std::ostringstream out;
  out << tree.name << ": " << tree.size() << " instances, " << tree.parents.size() << " parent links, depth "
      << tree.max_depth() << ", " << static_cast<double>(tree.total_flops()) << " flops\n";
  const auto per_type = tree.instances_per_type();
  for (std::size_t t = 0; t < tree.types.size(); ++t)
    out << "  type " << t << " " << tree.types[t].name << " (" << tree.types[t].threads << " threads, "
        << tree.types[t].flops << " flops): " << per_type[t] << "\n";
  const auto per_depth = tree.instances_per_depth();
  for (std::size_t d = 0; d < per_depth.size(); ++d) out << "  depth " << d << ": " << per_depth[d] << "\n";
  return out.str();
}

std::string_view to_string(GenericMode mode) {
  switch (mode) {
    case GenericMode::phases: return "phases";
    case GenericMode::dependencies: return "dependencies";
  }
  return "unknown";
}

std::optional<GenericMode> parse_generic_mode(std::string_view text) {
  if (text == "phases") return GenericMode::phases;
  if (text == "dependencies") return GenericMode::dependencies;
  return std::nullopt;
}

std::string verify(const ExecutionTree& tree, const GenericRun& run) {
  const std::size_t n = tree.size();
  auto name = [&](std::size_t i) {
    return "instance " + std::to_string(i) + " (" + tree.types[tree.type[i]].name + ", depth " +
           std::to_string(tree.depth[i]) + ")";
  };
  if (run.start_ticket.size() != n || run.end_ticket.size() != n || run.executions.size() != n)
    return "the run reports " + std::to_string(run.start_ticket.size()) + " start tickets, " +
           std::to_string(run.end_ticket.size()) + " end tickets and " + std::to_string(run.executions.size()) +
           " execution counts for a tree of " + std::to_string(n) + " instances";
  for (std::size_t i = 0; i < n; ++i) {
    if (run.executions[i] != 1)
      return name(i) + " ran " + std::to_string(run.executions[i]) + " times instead of once";
    if (run.start_ticket[i] == 0 || run.end_ticket[i] == 0 || run.end_ticket[i] <= run.start_ticket[i])
      return name(i) + " has start ticket " + std::to_string(run.start_ticket[i]) + " and end ticket " +
             std::to_string(run.end_ticket[i]) + " (a task ends after it starts; 0 means never taken)";
    for (std::uint32_t k = tree.parent_offsets[i]; k < tree.parent_offsets[i + 1]; ++k) {
      const std::uint32_t p = tree.parents[k];
      if (run.end_ticket[p] >= run.start_ticket[i])
        return name(i) + " started (ticket " + std::to_string(run.start_ticket[i]) + ") before its parent " +
               name(p) + " ended (ticket " + std::to_string(run.end_ticket[p]) + ")";
    }
  }
  return {};
}

}  // namespace apiary::generic
