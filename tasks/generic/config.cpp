#include "tasks/generic/config.hpp"

#include <algorithm>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <sstream>
#include <utility>

#include <nlohmann/json.hpp>

namespace apiary::generic {

namespace {

using nlohmann::json;

// Parsing state: the source name prefixes every message so that a user with several
// configs knows which file is wrong.
class Parser {
 public:
  explicit Parser(std::string source) : source_(std::move(source)) {}

  [[noreturn]] void fail(const std::string& where, const std::string& what) const {
    throw GenericConfigError(source_ + ": " + (where.empty() ? "" : where + ": ") + what);
  }

  void only_keys(const json& obj, const std::string& where, std::initializer_list<const char*> allowed) const {
    for (const auto& [key, value] : obj.items()) {
      if (std::find_if(allowed.begin(), allowed.end(), [&](const char* a) { return key == a; }) != allowed.end())
        continue;
      std::string list;
      for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
      fail(where, "unknown field '" + key + "' (allowed: " + list + ")");
    }
  }

  const json& object(const json& j, const std::string& where) const {
    if (!j.is_object()) fail(where, std::string("must be a JSON object, not ") + j.type_name());
    return j;
  }

  const json& array(const json& j, const std::string& where) const {
    if (!j.is_array()) fail(where, std::string("must be a JSON array, not ") + j.type_name());
    return j;
  }

  const json& required(const json& obj, const std::string& where, const char* key) const {
    const auto it = obj.find(key);
    if (it == obj.end()) fail(where, std::string("missing key '") + key + "'");
    return *it;
  }

  // Integers only: 2.5 threads or "64" must not be rounded or converted silently.
  std::int64_t integer(const json& j, const std::string& where, std::int64_t lo, std::int64_t hi) const {
    std::int64_t v = 0;
    if (j.is_number_unsigned()) {
      const auto u = j.get<std::uint64_t>();
      if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        fail(where, "must be at most " + std::to_string(hi));
      v = static_cast<std::int64_t>(u);
    } else if (j.is_number_integer()) {
      v = j.get<std::int64_t>();
    } else {
      fail(where, std::string("must be an integer, not ") + (j.is_number_float() ? "a fractional number" : j.type_name()));
    }
    if (v < lo || v > hi) fail(where, std::to_string(v) + " is outside [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return v;
  }

  double probability(const json& j, const std::string& where) const {
    if (!j.is_number()) fail(where, std::string("must be a number, not ") + j.type_name());
    const double p = j.get<double>();
    if (!(p >= 0.0 && p <= 1.0)) {
      std::ostringstream s;
      s << "probability " << p << " is outside [0, 1]";
      fail(where, s.str());
    }
    return p;
  }

  std::string text(const json& j, const std::string& where) const {
    if (!j.is_string()) fail(where, std::string("must be a string, not ") + j.type_name());
    return j.get<std::string>();
  }

  // A type by index or by name.
  int type_ref(const json& j, const std::string& where, const std::vector<TaskTypeSpec>& types) const {
    if (j.is_string()) {
      const std::string name = j.get<std::string>();
      for (std::size_t i = 0; i < types.size(); ++i)
        if (types[i].name == name) return static_cast<int>(i);
      fail(where, "unknown type '" + name + "'");
    }
    if (!j.is_number_integer()) fail(where, std::string("a type is an index or a name, not ") + j.type_name());
    const std::int64_t i = j.get<std::int64_t>();
    if (i < 0 || i >= static_cast<std::int64_t>(types.size()))
      fail(where, "unknown type " + std::to_string(i) + " (the config defines types 0.." +
                      std::to_string(types.size() - 1) + ")");
    return static_cast<int>(i);
  }

  const std::string& source() const { return source_; }

 private:
  std::string source_;
};

std::string describe_type(const std::vector<TaskTypeSpec>& types, int t) {
  return "type " + std::to_string(t) + " (" + types[t].name + ")";
}

std::vector<TaskTypeSpec> parse_types(const Parser& p, const json& j) {
  const json& arr = p.array(j, "types");
  if (arr.empty()) p.fail("types", "at least one task type is needed");
  if (arr.size() > static_cast<std::size_t>(kMaxTypes))
    p.fail("types", std::to_string(arr.size()) + " task types, the limit is " + std::to_string(kMaxTypes));
  std::vector<TaskTypeSpec> types;
  for (std::size_t i = 0; i < arr.size(); ++i) {
    const std::string where = "types[" + std::to_string(i) + "]";
    const json& t = p.object(arr[i], where);
    p.only_keys(t, where, {"name", "threads", "flops"});
    TaskTypeSpec spec;
    spec.name = t.contains("name") ? p.text(t["name"], where + ".name") : "t" + std::to_string(i);
    if (spec.name.empty()) p.fail(where + ".name", "must not be empty");
    for (const auto& other : types)
      if (other.name == spec.name) p.fail(where + ".name", "duplicate type name '" + spec.name + "'");
    const json& threads = p.required(t, where, "threads");
    spec.threads = static_cast<int>(p.integer(threads, where + ".threads", std::numeric_limits<int>::min(),
                                              std::numeric_limits<int>::max()));
    if (worker_size_class(spec.threads) < 0)
      p.fail(where + ".threads", std::to_string(spec.threads) +
                                     " is not a precompiled worker size: use 32, 64, 128 or 256 threads");
    spec.flops = static_cast<std::uint64_t>(
        p.integer(p.required(t, where, "flops"), where + ".flops", 0, static_cast<std::int64_t>(kMaxFlops)));
    types.push_back(std::move(spec));
  }
  return types;
}

std::vector<RootSpec> parse_roots(const Parser& p, const json& j, const std::vector<TaskTypeSpec>& types) {
  const json& arr = p.array(j, "roots");
  if (arr.empty()) p.fail("roots", "no root tasks: the tree would be empty");
  std::vector<RootSpec> roots;
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < arr.size(); ++i) {
    const std::string where = "roots[" + std::to_string(i) + "]";
    const json& r = p.object(arr[i], where);
    p.only_keys(r, where, {"type", "count"});
    RootSpec spec;
    spec.type = p.type_ref(p.required(r, where, "type"), where + ".type", types);
    spec.count = static_cast<std::uint64_t>(
        p.integer(p.required(r, where, "count"), where + ".count", 1, static_cast<std::int64_t>(kMaxInstances)));
    total += spec.count;
    if (total > kMaxInstances)
      p.fail("roots", "more than " + std::to_string(kMaxInstances) + " root instances (the instance limit)");
    roots.push_back(spec);
  }
  return roots;
}

std::vector<TransitionSpec> parse_transitions(const Parser& p, const json& j, const std::vector<TaskTypeSpec>& types) {
  const json& arr = p.array(j, "transitions");
  std::vector<TransitionSpec> transitions;
  for (std::size_t i = 0; i < arr.size(); ++i) {
    const std::string where = "transitions[" + std::to_string(i) + "]";
    const json& t = p.object(arr[i], where);
    TransitionSpec spec;
    spec.join = t.contains("join");
    if (spec.join) {
      if (t.contains("from")) p.fail(where, "has both 'from' and 'join'");
      p.only_keys(t, where, {"join", "to", "probability"});
      const json& list = p.array(t["join"], where + ".join");
      if (list.empty()) p.fail(where + ".join", "lists no types");
      for (std::size_t k = 0; k < list.size(); ++k) {
        const int type = p.type_ref(list[k], where + ".join[" + std::to_string(k) + "]", types);
        if (std::find(spec.from.begin(), spec.from.end(), type) != spec.from.end())
          p.fail(where + ".join", "lists " + describe_type(types, type) + " twice");
        spec.from.push_back(type);
      }
    } else {
      p.only_keys(t, where, {"from", "to", "probability", "fanout"});
      if (!t.contains("from")) p.fail(where, "missing key 'from' (or 'join' for a join transition)");
      spec.from.push_back(p.type_ref(t["from"], where + ".from", types));
      if (t.contains("fanout"))
        spec.fanout = static_cast<std::uint32_t>(
            p.integer(t["fanout"], where + ".fanout", 1, static_cast<std::int64_t>(kMaxInstances)));
    }
    spec.to = p.type_ref(p.required(t, where, "to"), where + ".to", types);
    if (t.contains("probability")) spec.probability = p.probability(t["probability"], where + ".probability");
    for (int from : spec.from)
      if (spec.to <= from)
        p.fail(where, "goes from " + describe_type(types, from) + " to " + describe_type(types, spec.to) +
                          ": a transition must go to a type defined after its source types (this rules out cycles)");
    transitions.push_back(std::move(spec));
  }
  return transitions;
}

}  // namespace

GenericConfig parse_generic_config(std::string_view text, std::string source) {
  const Parser p(std::move(source));
  json doc;
  try {
    doc = json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    p.fail("", std::string("invalid JSON: ") + e.what());
  }
  p.object(doc, "top level");
  p.only_keys(doc, "top level", {"name", "seed", "types", "roots", "transitions"});

  GenericConfig c;
  c.name = doc.contains("name") ? p.text(doc["name"], "name") : std::filesystem::path(p.source()).stem().string();
  if (doc.contains("seed"))
    c.seed = static_cast<std::uint64_t>(p.integer(doc["seed"], "seed", 0, std::numeric_limits<std::int64_t>::max()));
  c.types = parse_types(p, p.required(doc, "top level", "types"));
  c.roots = parse_roots(p, p.required(doc, "top level", "roots"), c.types);
  if (doc.contains("transitions")) c.transitions = parse_transitions(p, doc["transitions"], c.types);
  return c;
}

GenericConfig load_generic_config(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw GenericConfigError(path.string() + ": cannot open the generic config file");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw GenericConfigError(path.string() + ": error while reading the generic config file");
  return parse_generic_config(text.str(), path.string());
}

}  // namespace apiary::generic
