// The configuration of the generic test program: task types with a synthetic
// workload, the root tasks, and the transitions that grow an execution tree from them.
//
// JSON format (docs/generic.md has a walk-through):
//
//   {
//     "name": "diamond",                   // optional; defaults to the source name
//     "seed": 1,                           // optional, default 1; drives every probability
//     "types": [                           // at most 16 task types
//       {"name": "t0", "threads": 128, "flops": 20000},   // name optional ("t<index>")
//       ...
//     ],
//     "roots": [{"type": 0, "count": 64}], // instances created by the host, depth 0
//     "transitions": [                     // optional
//       {"from": 0, "to": 1, "probability": 1.0, "fanout": 2},
//       {"join": [1, 2], "to": 3, "probability": 1.0}
//     ]
//   }
//
// Semantics:
//  * A type is referenced by its index in "types" (a number) or by its name (a string).
//  * "threads" is the worker size of every instance of the type. Only the precompiled
//    sizes 32, 64, 128 and 256 are available. "flops" (0 .. 2^36) is the number of
//    floating-point operations an instance performs (as FMAs, 2 flops each).
//  * Plain transition {"from", "to", "probability" = 1, "fanout" = 1}: every instance of
//    `from` draws once; with the given probability it creates `fanout` children of type
//    `to`. These are the instance's "fanout children"; they depend on it alone.
//  * Join transition {"join": [types...], "to", "probability" = 1}: every instance whose
//    fanout children include at least one of each listed type draws once; with the
//    given probability it creates one instance of `to` that depends on all of its
//    fanout children of the listed types. That join instance is created (and, in
//    dependencies mode, announced) by its first parent.
//  * A transition must go to a type defined after all of its source types, so the
//    type graph has no cycles (the thesis's rule) and every tree is finite.
//  * Draws come from std::mt19937_64 seeded with "seed", one per (instance, applicable
//    transition) in a fixed order, mapped to [0, 1) by the top 53 bits: the same seed
//    gives the same tree on every platform.
//  * Unknown fields are errors (a typo must not silently fall back to a default).
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace apiary::generic {

inline constexpr int kMaxTypes = 16;
inline constexpr std::uint64_t kMaxFlops = std::uint64_t{1} << 36;
// Expansion stops with an error beyond this many instances: a config with a large
// fanout at every level grows exponentially, and a typo should not eat the host memory.
inline constexpr std::uint64_t kMaxInstances = std::uint64_t{1} << 24;
// The worker sizes for which the device task types are precompiled.
inline constexpr int kWorkerSizes[] = {32, 64, 128, 256};
inline constexpr int kWorkerSizeCount = 4;

// A config that cannot be parsed, validated or expanded; the message names the
// source and the offending field.
class GenericConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct TaskTypeSpec {
  std::string name;
  int threads = 32;
  std::uint64_t flops = 0;
};

struct RootSpec {
  int type = 0;
  std::uint64_t count = 0;
};

struct TransitionSpec {
  bool join = false;
  std::vector<int> from;  // one type for a plain transition, the joined types for a join
  int to = 0;
  double probability = 1.0;
  std::uint32_t fanout = 1;  // always 1 for a join
};

struct GenericConfig {
  std::string name;
  std::uint64_t seed = 1;
  std::vector<TaskTypeSpec> types;
  std::vector<RootSpec> roots;
  std::vector<TransitionSpec> transitions;
};

// Index of a worker size in kWorkerSizes, -1 when it is not precompiled.
constexpr int worker_size_class(int threads) {
  for (int i = 0; i < kWorkerSizeCount; ++i)
    if (kWorkerSizes[i] == threads) return i;
  return -1;
}

// `source` names the text in error messages (usually the file name).
GenericConfig parse_generic_config(std::string_view json, std::string source);
GenericConfig load_generic_config(const std::filesystem::path& path);

}  // namespace apiary::generic
