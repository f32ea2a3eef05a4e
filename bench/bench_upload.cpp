// Host-to-device uploads from pageable memory: the staged path (runtime/host_upload.hpp,
// pinned buffers filled by several host threads) and upload_to_device (staged from
// kStagedUploadMin on) against one cudaMemcpy, in the same process, median of --reps.
// Every upload is checked (the device copy read back).
//
//   bench_upload --mib 0.25,1,4,24,96 --reps 9 --json upload.json
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"
#include "runtime/device_buffer.hpp"
#include "runtime/host_upload.hpp"

namespace {

using namespace apiary;

double median_ms(const std::function<void()>& call, int reps) {
  call();  // warm-up (the staging buffers are allocated by the first staged upload)
  std::vector<double> ms;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    call();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Uploads from pageable host memory: staged and upload_to_device against one cudaMemcpy"};
  std::vector<double> mib{0.25, 1, 4, 24, 96};
  int reps = 9;
  std::string json_path;
  app.add_option("--mib", mib, "sizes in MiB")->delimiter(',')->check(CLI::PositiveNumber);
  app.add_option("--reps", reps, "timed uploads per size and method (median)")->check(CLI::PositiveNumber);
  app.add_option("--json", json_path, "also write the rows as JSON here");
  CLI11_PARSE(app, argc, argv);
  try {
    if (auto reason = no_device_reason()) {
      std::fprintf(stderr, "bench_upload: no GPU available (%s)\n", reason->c_str());
      return 1;
    }
    std::printf("device %s, %u host threads\n", describe(query_device()).c_str(), std::thread::hardware_concurrency());
    std::printf("%10s %14s %14s %9s %18s %9s\n", "MiB", "cudaMemcpy ms", "staged ms", "speedup", "upload_to_device",
                "speedup");
    nlohmann::json rows = nlohmann::json::array();
    for (const double m : mib) {
      const auto bytes = static_cast<std::size_t>(m * 1024 * 1024);
      std::vector<unsigned char> host(bytes);
      for (std::size_t i = 0; i < bytes; ++i) host[i] = static_cast<unsigned char>(i * 2654435761u >> 24);
      DeviceBuffer<unsigned char> d(bytes);
      const double plain = median_ms(
          [&] { APIARY_CUDA_CHECK(cudaMemcpy(d.data(), host.data(), bytes, cudaMemcpyHostToDevice)); }, reps);
      const auto check = [&](const char* what) {
        if (d.to_host() != host) throw std::runtime_error(std::string(what) + ": the device copy differs");
        APIARY_CUDA_CHECK(cudaMemset(d.data(), 0, bytes));
      };
      check("cudaMemcpy");
      const double staged = median_ms([&] { detail::staged_upload(d.data(), host.data(), bytes); }, reps);
      check("staged upload");
      const double chosen = median_ms([&] { upload_to_device(d.data(), host.data(), bytes); }, reps);
      check("upload_to_device");
      std::printf("%10.2f %14.3f %14.3f %8.2fx %18.3f %8.2fx\n", m, plain, staged, plain / staged, chosen,
                  plain / chosen);
      rows.push_back({{"mib", m},
                      {"cuda_memcpy_ms", plain},
                      {"staged_ms", staged},
                      {"upload_to_device_ms", chosen},
                      {"speedup", plain / chosen}});
    }
    std::printf("median of %d uploads each, host wall time, same process\n", reps);
    if (!json_path.empty()) std::ofstream(json_path) << nlohmann::json{{"reps", reps}, {"rows", rows}}.dump(2) << "\n";
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_upload: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
