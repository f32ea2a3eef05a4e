#include "runtime/trace.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <stdexcept>

#include <fmt/format.h>

namespace apiary {

void write_chrome_trace(const std::filesystem::path& path, std::span<const TraceRecord> records,
                        std::span<const std::string> type_names, const std::string& scheduler) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "w"), &std::fclose);
  if (!f) throw std::runtime_error("cannot write trace file " + path.string());
  unsigned long long origin = ~0ull;
  for (const auto& r : records) origin = std::min(origin, r.start_ns);
  fmt::print(f.get(), "{{\"displayTimeUnit\":\"ns\",\"otherData\":{{\"scheduler\":\"{}\"}},\"traceEvents\":[\n",
             scheduler);
  bool first = true;
  for (const auto& r : records) {
    const std::string& name = r.queue < type_names.size() ? type_names[r.queue] : std::string("task");
    fmt::print(f.get(), "{}{{\"name\":\"{}\",\"cat\":\"task\",\"ph\":\"X\",\"pid\":0,\"tid\":{},\"ts\":{:.3f},\"dur\":{:.3f}}}",
               first ? "" : ",\n", name, r.sm, (r.start_ns - origin) / 1000.0,
               (r.end_ns > r.start_ns ? r.end_ns - r.start_ns : 0) / 1000.0);
    first = false;
  }
  fmt::print(f.get(), "\n]}}\n");
  if (std::ferror(f.get())) throw std::runtime_error("error writing trace file " + path.string());
}

}  // namespace apiary
