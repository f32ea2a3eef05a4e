// The execution tree of a generic config: every task instance the run will execute,
// decided on the host from the config's seed, so that a run can be checked against it
// and two schedulers or modes execute exactly the same work.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "tasks/generic/config.hpp"

namespace apiary::generic {

inline constexpr std::uint32_t kNoCreator = std::numeric_limits<std::uint32_t>::max();

// Instances are numbered in creation order (breadth first: roots, then the children of
// instance 0, of instance 1, ...), so every parent has a smaller index than its
// children. Parents and children are CSR arrays.
struct ExecutionTree {
  std::string name;
  std::vector<TaskTypeSpec> types;     // from the config
  std::vector<std::uint32_t> type;     // per instance
  std::vector<std::uint32_t> depth;    // roots 0; otherwise 1 + the deepest parent
  std::vector<std::uint32_t> creator;  // the first parent, which creates it; kNoCreator for roots
  std::vector<std::uint32_t> parent_offsets{0};
  std::vector<std::uint32_t> parents;
  std::vector<std::uint32_t> child_offsets{0};
  std::vector<std::uint32_t> children;  // ascending instance index per parent

  std::size_t size() const { return type.size(); }
  std::uint32_t max_depth() const;
  std::size_t parent_count(std::size_t i) const { return parent_offsets[i + 1] - parent_offsets[i]; }
  std::size_t child_count(std::size_t i) const { return child_offsets[i + 1] - child_offsets[i]; }
  std::vector<std::size_t> instances_per_type() const;
  std::vector<std::size_t> instances_per_depth() const;
  std::uint64_t total_flops() const;
};

// Deterministic: the same config (seed included) gives the same tree. Throws
// GenericConfigError when the tree would exceed kMaxInstances.
ExecutionTree expand(const GenericConfig& config);

// One line per type and per depth: how many instances, for logs and the CLI.
std::string describe(const ExecutionTree& tree);

}  // namespace apiary::generic
