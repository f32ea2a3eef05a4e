#include "tasks/sptrsv/ranges.hpp"

#include <condition_variable>
#include <deque>
#include <mutex>

namespace apiary::sptrsv::detail {

namespace {

// The jobs of one run_jobs call: handed out in order, counted when done.
struct Batch {
  const std::function<void(std::size_t)>* job = nullptr;
  std::size_t count = 0;
  std::size_t next = 0;  // the next job not taken
  std::size_t done = 0;
  std::condition_variable finished;
};

class Pool {
 public:
  Pool() {
    const unsigned workers = std::max(1u, std::thread::hardware_concurrency()) - 1;
    for (unsigned t = 0; t < workers; ++t) threads_.emplace_back([this] { work(); });
  }
  ~Pool() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : threads_) t.join();
  }

  void run(Batch& b) {
    std::unique_lock lock(mutex_);
    open_.push_back(&b);
    const std::size_t others = std::min(b.count - 1, threads_.size());
    lock.unlock();
    for (std::size_t k = 0; k < others; ++k) wake_.notify_one();
    lock.lock();
    while (b.next < b.count) run_one(b, lock);  // what no worker took
    b.finished.wait(lock, [&] { return b.done == b.count; });
  }

 private:
  // Takes job b.next and runs it with the lock released; b leaves the open batches with its
  // last job taken.
  void run_one(Batch& b, std::unique_lock<std::mutex>& lock) {
    const std::size_t i = b.next++;
    if (b.next == b.count) open_.erase(std::find(open_.begin(), open_.end(), &b));
    lock.unlock();
    (*b.job)(i);
    lock.lock();
    if (++b.done == b.count) b.finished.notify_one();
  }

  void work() {
    std::unique_lock lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return stop_ || !open_.empty(); });
      if (stop_) return;
      run_one(*open_.front(), lock);
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Batch*> open_;  // batches with jobs not taken yet
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace

void run_jobs(std::size_t count, const std::function<void(std::size_t)>& job) {
  if (count == 0) return;
  static Pool pool;
  Batch b;
  b.job = &job;
  b.count = count;
  pool.run(b);
}

}  // namespace apiary::sptrsv::detail
