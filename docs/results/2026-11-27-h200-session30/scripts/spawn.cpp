// Cost of one fork/join round of 16 on this host: std::async threads (what for_each_range does)
// against an OpenMP parallel region from the main thread and from a fresh std::thread.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <future>
#include <thread>
#include <vector>
#include <omp.h>
using K = std::chrono::steady_clock;
static double us(K::time_point a) { return std::chrono::duration<double, std::micro>(K::now() - a).count(); }
std::atomic<long> sink{0};
int main() {
  for (int threads : {2, 4, 8, 16}) {
    const int reps = 200;
    auto t = K::now();
    for (int r = 0; r < reps; ++r) {
      std::vector<std::future<void>> w;
      for (int i = 1; i < threads; ++i) w.push_back(std::async(std::launch::async, [] { sink++; }));
      sink++;
      for (auto& f : w) f.get();
    }
    const double a = us(t) / reps;
    t = K::now();
    for (int r = 0; r < reps; ++r) {
#pragma omp parallel num_threads(threads)
      sink++;
    }
    const double o = us(t) / reps;
    double fresh = 0;
    std::thread th([&] {
      auto t0 = K::now();
#pragma omp parallel num_threads(threads)
      sink++;
      fresh = us(t0);
    });
    th.join();
    std::printf("threads %2d: std::async round %.1f us, omp round %.1f us, omp first round in a new thread %.1f us\n", threads, a, o, fresh);
  }
}
