// The generic test program on the host: config parsing and its errors, expansion
// (counts, order, depth rule, determinism) and the check of a run against its tree.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "tasks/generic/generic.hpp"

namespace apiary::generic {
namespace {

const std::string kConfigDir = std::string(APIARY_SOURCE_DIR) + "/tasks/generic/configs/";

// All probabilities 1, so every count below follows by hand:
// per root a: 2 b + 3 c, one d joining those 5, each b 2 e, each b one f joining its 2 e.
constexpr const char* kSmall = R"({
  "name": "small", "seed": 3,
  "types": [
    {"name": "a", "threads": 32, "flops": 1000},
    {"name": "b", "threads": 64, "flops": 2000},
    {"name": "c", "threads": 128, "flops": 0},
    {"name": "d", "threads": 256, "flops": 500},
    {"name": "e", "threads": 32, "flops": 100},
    {"name": "f", "threads": 64, "flops": 100}
  ],
  "roots": [{"type": "a", "count": 3}],
  "transitions": [
    {"from": "a", "to": "b", "fanout": 2},
    {"from": 0, "to": 2, "fanout": 3, "probability": 1.0},
    {"join": ["b", "c"], "to": "d"},
    {"from": "b", "to": "e", "fanout": 2},
    {"join": ["e"], "to": "f", "probability": 1}
  ]
})";

std::string error_of(const std::string& json) {
  try {
    parse_generic_config(json, "bad.json");
  } catch (const GenericConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(GenericConfig, ParsesTheShippedFourTypes) {
  const GenericConfig c = load_generic_config(kConfigDir + "four_types.json");
  EXPECT_EQ(c.name, "four_types");
  ASSERT_EQ(c.types.size(), 4u);
  ASSERT_EQ(c.transitions.size(), 3u);
  EXPECT_TRUE(c.transitions[2].join);
  EXPECT_EQ(c.transitions[2].from, (std::vector<int>{1, 2}));
  EXPECT_EQ(c.transitions[2].to, 3);
  for (const auto& t : c.transitions) EXPECT_EQ(t.probability, 1.0);
  std::vector<int> sizes;
  for (const auto& t : c.types) sizes.push_back(t.threads);
  std::sort(sizes.begin(), sizes.end());
  EXPECT_EQ(std::unique(sizes.begin(), sizes.end()) - sizes.begin(), 4) << "mixed worker sizes";

  const ExecutionTree tree = expand(c);
  EXPECT_EQ(tree.size(), 256u * 8u);
  EXPECT_EQ(tree.instances_per_depth(), (std::vector<std::size_t>{256, 256 * 6, 256}));
  EXPECT_LT(tree.max_depth(), static_cast<std::uint32_t>(kMaxPhases));
}

TEST(GenericConfig, ParsesTheShippedElevenTypes) {
  const GenericConfig c = load_generic_config(kConfigDir + "eleven_types.json");
  EXPECT_EQ(c.types.size(), 11u);
  EXPECT_GE(std::count_if(c.transitions.begin(), c.transitions.end(), [](const auto& t) { return t.join; }), 2);
  EXPECT_TRUE(std::any_of(c.transitions.begin(), c.transitions.end(),
                          [](const auto& t) { return t.probability < 1.0; }));
  const ExecutionTree tree = expand(c);
  EXPECT_GE(tree.size(), 10000u);
  EXPECT_LE(tree.size(), 200000u);
  EXPECT_LE(tree.max_depth(), 7u);
  for (std::size_t n : tree.instances_per_type()) EXPECT_GT(n, 0u) << describe(tree);
}

TEST(GenericConfig, DefaultsAndReferencesByNameOrIndex) {
  const GenericConfig c = parse_generic_config(
      R"({"types": [{"threads": 32, "flops": 1}, {"name": "x", "threads": 256, "flops": 2}],
          "roots": [{"type": 1, "count": 2}]})",
      "/some/dir/defaults.json");
  EXPECT_EQ(c.name, "defaults");
  EXPECT_EQ(c.seed, 1u);
  EXPECT_EQ(c.types[0].name, "t0");
  EXPECT_TRUE(c.transitions.empty());
  const GenericConfig s = parse_generic_config(kSmall, "small.json");
  EXPECT_EQ(s.transitions[0].from, std::vector<int>{0});
  EXPECT_EQ(s.transitions[0].to, 1);
  EXPECT_EQ(s.transitions[1].to, 2);
  EXPECT_EQ(s.transitions[0].fanout, 2u);
  EXPECT_EQ(s.transitions[2].fanout, 1u);
}

struct Malformed {
  const char* what;
  std::string json;
  std::vector<std::string> expected;  // substrings of the message
};

std::string with_types(const std::string& types, const std::string& rest = R"("roots": [{"type": 0, "count": 1}])") {
  return R"({"types": [)" + types + "], " + rest + "}";
}

const std::string kTwo = R"({"threads": 32, "flops": 1}, {"threads": 64, "flops": 1})";

TEST(GenericConfig, MalformedConfigsGiveClearErrors) {
  std::string seventeen;
  for (int i = 0; i < 17; ++i) seventeen += std::string(i ? ", " : "") + R"({"threads": 32, "flops": 1})";
  const std::vector<Malformed> cases = {
      {"syntax error", R"({"types": [)", {"bad.json", "invalid JSON", "parse error"}},
      {"not an object", "[1, 2]", {"bad.json", "top level", "object"}},
      {"missing types", R"({"roots": [{"type": 0, "count": 1}]})", {"missing key 'types'"}},
      {"missing roots", R"({"types": [{"threads": 32, "flops": 1}]})", {"missing key 'roots'"}},
      {"missing threads", with_types(R"({"flops": 1})"), {"types[0]", "missing key 'threads'"}},
      {"missing flops", with_types(R"({"threads": 32})"), {"types[0]", "missing key 'flops'"}},
      {"unknown top-level field", R"({"typo": 1, "types": [], "roots": []})", {"unknown field 'typo'"}},
      {"unknown type field", with_types(R"({"threads": 32, "flops": 1, "flop": 2})"), {"types[0]", "'flop'"}},
      {"worker size not precompiled", with_types(R"({"threads": 100, "flops": 1})"),
       {"types[0].threads", "100", "32, 64, 128 or 256"}},
      {"worker size as string", with_types(R"({"threads": "64", "flops": 1})"), {"types[0].threads", "integer"}},
      {"fractional flops", with_types(R"({"threads": 64, "flops": 1.5})"), {"types[0].flops", "integer"}},
      {"negative flops", with_types(R"({"threads": 64, "flops": -1})"), {"types[0].flops", "-1"}},
      {"too many types", with_types(seventeen), {"17 task types", "limit is 16"}},
      {"no types", with_types(""), {"types", "at least one"}},
      {"duplicate names", with_types(R"({"name": "a", "threads": 32, "flops": 1}, {"name": "a", "threads": 32, "flops": 1})"),
       {"types[1].name", "duplicate"}},
      {"empty roots", with_types(kTwo, R"("roots": [])"), {"roots", "empty"}},
      {"zero root count", with_types(kTwo, R"("roots": [{"type": 0, "count": 0}])"), {"roots[0].count", "0"}},
      {"unknown root type index", with_types(kTwo, R"("roots": [{"type": 5, "count": 1}])"),
       {"roots[0].type", "unknown type 5", "0..1"}},
      {"unknown type name", with_types(kTwo, R"("roots": [{"type": "nope", "count": 1}])"),
       {"roots[0].type", "unknown type 'nope'"}},
      {"backwards transition",
       with_types(kTwo, R"("roots": [{"type": 0, "count": 1}], "transitions": [{"from": 1, "to": 0}])"),
       {"transitions[0]", "from type 1", "to type 0", "defined after"}},
      {"self loop (cycle)",
       with_types(kTwo, R"("roots": [{"type": 0, "count": 1}], "transitions": [{"from": 1, "to": 1}])"),
       {"transitions[0]", "cycles"}},
      {"join backwards",
       with_types(kTwo, R"("roots": [{"type": 0, "count": 1}], "transitions": [{"join": [0, 1], "to": 1}])"),
       {"transitions[0]", "from type 1"}},
      {"probability above 1",
       with_types(kTwo, R"("roots": [{"type": 0, "count": 1}], "transitions": [{"from": 0, "to": 1, "probability": 1.5}])"),
       {"transitions[0].probability", "1.5", "[0, 1]"}},
      {"negative probability",
       with_types(kTwo, R"("roots": [{"type": 0, "count": 1}], "transitions": [{"from": 0, "to": 1, "probability": -0.1}])"),
       {"transitions[0].probability", "[0, 1]"}},
      {"zero fanout",
       with_types(kTwo, R"("roots": [{"type": 0, "count": 1}], "transitions": [{"from": 0, "to": 1, "fanout": 0}])"),
       {"transitions[0].fanout", "0"}},
      {"fanout on a join",
       with_types(kTwo, R"("roots": [{"type": 0, "count": 1}], "transitions": [{"join": [0], "to": 1, "fanout": 2}])"),
       {"transitions[0]", "unknown field 'fanout'"}},
      {"from and join",
       with_types(kTwo, R"("roots": [{"type": 0, "count": 1}], "transitions": [{"from": 0, "join": [0], "to": 1}])"),
       {"transitions[0]", "both 'from' and 'join'"}},
      {"transition without source",
       with_types(kTwo, R"("roots": [{"type": 0, "count": 1}], "transitions": [{"to": 1}])"),
       {"transitions[0]", "missing key 'from'"}},
      {"transition without target",
       with_types(kTwo, R"("roots": [{"type": 0, "count": 1}], "transitions": [{"from": 0}])"),
       {"transitions[0]", "missing key 'to'"}},
      {"join listing a type twice",
       with_types(kTwo + R"(, {"threads": 32, "flops": 1})",
                  R"("roots": [{"type": 0, "count": 1}], "transitions": [{"join": [1, 1], "to": 2}])"),
       {"transitions[0].join", "twice"}},
  };
  for (const Malformed& m : cases) {
    const std::string message = error_of(m.json);
    for (const std::string& part : m.expected)
      EXPECT_NE(message.find(part), std::string::npos) << m.what << ": '" << part << "' not in: " << message;
  }
}

TEST(GenericConfig, MissingFileNamesThePath) {
  try {
    load_generic_config("/nonexistent/generic.json");
    FAIL() << "expected an error";
  } catch (const GenericConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/generic.json"), std::string::npos) << e.what();
  }
}

TEST(GenericExpand, TooManyInstancesIsAnError) {
  // The first fanout crosses the limit: refused before anything is allocated.
  const GenericConfig c = parse_generic_config(
      with_types(kTwo, R"("roots": [{"type": 0, "count": 2}],
                          "transitions": [{"from": 0, "to": 1, "fanout": 16777215}])"),
      "huge.json");
  try {
    expand(c);
    FAIL() << "expected an error";
  } catch (const GenericConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("16777216"), std::string::npos) << e.what();
  }
}

TEST(GenericExpand, CountsOfASmallConfigFollowByHand) {
  const ExecutionTree t = expand(parse_generic_config(kSmall, "small.json"));
  ASSERT_EQ(t.size(), 39u);  // per root: 1 a + 2 b + 3 c + 1 d + 4 e + 2 f
  EXPECT_EQ(t.instances_per_type(), (std::vector<std::size_t>{3, 6, 9, 3, 12, 6}));
  EXPECT_EQ(t.instances_per_depth(), (std::vector<std::size_t>{3, 15, 15, 6}));
  EXPECT_EQ(t.parents.size(), 36u + 3u * 4u + 6u);  // one each, + 4 extra per d, + 1 extra per f
  EXPECT_EQ(t.children.size(), t.parents.size());

  // Breadth-first creation order: roots 0..2, then root 0's children 3..8.
  EXPECT_EQ(std::vector<std::uint32_t>(t.type.begin(), t.type.begin() + 9),
            (std::vector<std::uint32_t>{0, 0, 0, 1, 1, 2, 2, 2, 3}));
  EXPECT_EQ(t.parent_count(8), 5u);
  EXPECT_EQ(std::vector<std::uint32_t>(t.parents.begin() + t.parent_offsets[8], t.parents.begin() + t.parent_offsets[9]),
            (std::vector<std::uint32_t>{3, 4, 5, 6, 7}));
  EXPECT_EQ(t.creator[8], 3u);
  EXPECT_EQ(t.creator[3], 0u);
  EXPECT_EQ(t.creator[0], kNoCreator);
  // Instance 3 (a b) creates e 21, 22 and f 23, and is also a parent of the d, 8.
  EXPECT_EQ(std::vector<std::uint32_t>(t.children.begin() + t.child_offsets[3], t.children.begin() + t.child_offsets[4]),
            (std::vector<std::uint32_t>{8, 21, 22}));
  EXPECT_EQ(t.type[23], 5u);
  EXPECT_EQ(t.depth[23], 3u);
  EXPECT_EQ(t.creator[23], 21u);
}

TEST(GenericExpand, DepthIsOneBelowTheDeepestParentAndTheCreatorIsTheFirstParent) {
  for (const char* file : {"four_types.json", "eleven_types.json"}) {
    const ExecutionTree t = expand(load_generic_config(kConfigDir + file));
    std::size_t joins = 0;
    for (std::size_t i = 0; i < t.size(); ++i) {
      if (t.parent_count(i) == 0) {
        ASSERT_EQ(t.depth[i], 0u);
        ASSERT_EQ(t.creator[i], kNoCreator);
        continue;
      }
      std::uint32_t deepest = 0;
      for (std::uint32_t k = t.parent_offsets[i]; k < t.parent_offsets[i + 1]; ++k) {
        ASSERT_LT(t.parents[k], i) << "parents come first in creation order";
        deepest = std::max(deepest, t.depth[t.parents[k]]);
      }
      ASSERT_EQ(t.depth[i], deepest + 1) << file << " instance " << i;
      ASSERT_EQ(t.creator[i], t.parents[t.parent_offsets[i]]);
      ASSERT_EQ(t.depth[i], t.depth[t.creator[i]] + 1);
      if (t.parent_count(i) > 1) {
        ++joins;
        // A join waits for siblings: children of one grandparent.
        const std::uint32_t grandparent = t.creator[t.creator[i]];
        for (std::uint32_t k = t.parent_offsets[i]; k < t.parent_offsets[i + 1]; ++k)
          ASSERT_EQ(t.creator[t.parents[k]], grandparent);
        ASSERT_EQ(t.depth[i], t.depth[grandparent] + 2);
      }
    }
    EXPECT_GT(joins, 0u) << file;
  }
}

void expect_same_tree(const ExecutionTree& a, const ExecutionTree& b) {
  EXPECT_EQ(a.type, b.type);
  EXPECT_EQ(a.depth, b.depth);
  EXPECT_EQ(a.creator, b.creator);
  EXPECT_EQ(a.parent_offsets, b.parent_offsets);
  EXPECT_EQ(a.parents, b.parents);
  EXPECT_EQ(a.child_offsets, b.child_offsets);
  EXPECT_EQ(a.children, b.children);
}

TEST(GenericExpand, SameSeedSameTreeOtherSeedOtherTree) {
  GenericConfig c = load_generic_config(kConfigDir + "eleven_types.json");
  const ExecutionTree first = expand(c);
  expect_same_tree(first, expand(c));
  c.seed += 1;
  const ExecutionTree other = expand(c);
  EXPECT_TRUE(first.type != other.type || first.parents != other.parents);
  // With every probability 1 the seed does not matter.
  GenericConfig small = parse_generic_config(kSmall, "small.json");
  const ExecutionTree s1 = expand(small);
  small.seed = 12345;
  expect_same_tree(s1, expand(small));
}

TEST(GenericExpand, ProbabilityZeroAndOne) {
  GenericConfig c = parse_generic_config(kSmall, "small.json");
  c.transitions[3].probability = 0.0;  // no b -> e, so no f either
  const ExecutionTree t = expand(c);
  EXPECT_EQ(t.instances_per_type(), (std::vector<std::size_t>{3, 6, 9, 3, 0, 0}));
}

// A run that follows the tree's creation order: every parent ends before its
// children start.
GenericRun ideal_run(const ExecutionTree& t) {
  GenericRun run;
  for (std::size_t i = 0; i < t.size(); ++i) {
    run.start_ticket.push_back(2 * i + 1);
    run.end_ticket.push_back(2 * i + 2);
  }
  run.executions.assign(t.size(), 1);
  return run;
}

TEST(GenericVerify, AcceptsAnOrderlyRunAndNamesTheFirstViolation) {
  const ExecutionTree t = expand(parse_generic_config(kSmall, "small.json"));
  EXPECT_EQ(verify(t, ideal_run(t)), "");

  GenericRun twice = ideal_run(t);
  twice.executions[5] = 2;
  EXPECT_NE(verify(t, twice).find("instance 5 (c, depth 1) ran 2 times"), std::string::npos) << verify(t, twice);

  GenericRun never = ideal_run(t);
  never.executions[7] = 0;
  EXPECT_NE(verify(t, never).find("ran 0 times"), std::string::npos);

  // d (instance 8) starts before its last parent (7) ends.
  GenericRun early = ideal_run(t);
  early.start_ticket[8] = early.end_ticket[7] - 1;
  early.end_ticket[8] = early.end_ticket[7] + 100;
  const std::string message = verify(t, early);
  EXPECT_NE(message.find("instance 8 (d, depth 2) started"), std::string::npos) << message;
  EXPECT_NE(message.find("parent instance 7"), std::string::npos) << message;

  GenericRun untaken = ideal_run(t);
  untaken.end_ticket[0] = 0;
  EXPECT_NE(verify(t, untaken).find("0 means never taken"), std::string::npos);

  GenericRun short_run = ideal_run(t);
  short_run.start_ticket.pop_back();
  EXPECT_NE(verify(t, short_run).find("tree of 39 instances"), std::string::npos);
}

TEST(GenericMode, NamesRoundTrip) {
  for (GenericMode m : {GenericMode::phases, GenericMode::dependencies})
    EXPECT_EQ(parse_generic_mode(to_string(m)), m);
  EXPECT_FALSE(parse_generic_mode("both").has_value());
}

}  // namespace
}  // namespace apiary::generic
