// The analysis's host passes on several threads: passes run beside each other, and
// passes split into ranges of about equal work, run by the calling thread and the
// threads of a pool: the device plan's sub-graphs (by edges), the schedule's sub-graphs
// (slots, by vertices) and rows (edges, by edges), the components whose orders are
// prepared and a large component's frontiers (by vertices).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <exception>
#include <functional>
#include <thread>
#include <vector>

namespace apiary::sptrsv::detail {

// How many ranges a pass over `work` units gets: one per `min_per_range` units, at most
// `threads` (0: one per hardware thread) and at most `items`, at least one.
inline std::size_t range_count(std::size_t work, std::size_t min_per_range, std::size_t items,
                               unsigned threads = 0) {
  const std::size_t most = threads != 0 ? threads : std::max(1u, std::thread::hardware_concurrency());
  return std::clamp<std::size_t>(std::min(most, work / std::max<std::size_t>(min_per_range, 1)), 1,
                                 std::max<std::size_t>(items, 1));
}

// The starts of at most `ranges` consecutive ranges of items [0, count), followed by
// count, such that each range ends where the work of the items before reaches the next
// multiple of total / ranges. work_before(i) is the work of items [0, i): non-decreasing,
// work_before(0) = 0.
template <class WorkBefore>
std::vector<std::size_t> balanced_ranges(std::size_t count, std::size_t ranges, WorkBefore work_before) {
  std::vector<std::size_t> begin{0};
  const auto total = static_cast<std::size_t>(work_before(count));
  for (std::size_t i = 0; i < count && begin.size() < ranges; ++i)
    if (static_cast<std::size_t>(work_before(i + 1)) * ranges >= total * begin.size()) begin.push_back(i + 1);
  if (begin.back() != count) begin.push_back(count);
  return begin;
}

// Runs job(i) for every i in [0, count) on the calling thread and on the threads of a
// process-wide pool (one per hardware thread but one, started on first use, asleep when
// idle), and returns when all are done. job must not throw (run_each catches for it).
// The calling thread runs the jobs no other thread has taken yet, so a job may call it
// again (the candidates' passes do). A std::async thread per range cost ~28 us to start
// on a 16-core H200 host, and one thread starting 15 took ~425 us before the last range
// began (session 30); an OpenMP team measured slower still in the benchmark (its threads
// spin after a pass, and teams started on the candidates' threads end with them).
void run_jobs(std::size_t count, const std::function<void(std::size_t)>& job);

// Calls f(i) for every i in [0, count) through run_jobs and returns when all are done;
// rethrows the first exception in index order (the other calls still run).
template <class F>
void run_each(std::size_t count, F&& f) {
  std::vector<std::exception_ptr> error(count);
  run_jobs(count, [&](std::size_t i) {
    try {
      f(i);
    } catch (...) {
      error[i] = std::current_exception();
    }
  });
  for (const std::exception_ptr& e : error)
    if (e) std::rethrow_exception(e);
}

// Runs the passes f... side by side (run_each) and returns when all are done; rethrows
// the first exception in argument order.
template <class... F>
void side_by_side(F&&... f) {
  const std::array<std::function<void()>, sizeof...(F)> pass{std::function<void()>(std::forward<F>(f))...};
  run_each(pass.size(), [&](std::size_t i) { pass[i](); });
}

// Calls f(r, begin[r], begin[r + 1]) for every range r of `begin` (balanced_ranges) through
// run_each; returns when all are done and rethrows the first exception in range order.
template <class F>
void for_each_range(const std::vector<std::size_t>& begin, F&& f) {
  if (begin.size() < 2) return;
  const std::size_t ranges = begin.size() - 1;
  if (ranges == 1) return f(std::size_t{0}, begin[0], begin[1]);
  run_each(ranges, [&](std::size_t r) { f(r, begin[r], begin[r + 1]); });
}

}  // namespace apiary::sptrsv::detail
