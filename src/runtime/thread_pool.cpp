#include "runtime/thread_pool.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace stepwise {
namespace {

constexpr int kSpins = 20000;  // about 100 microseconds of polling before a thread sleeps

inline void relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

}  // namespace

ThreadPool::ThreadPool(int threads) : taken_over_(std::max(threads, 1)) {
  for (int i = 1; i < std::max(threads, 1); ++i) workers_.emplace_back([this, i] { work(i); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
    generation_.fetch_add(1, std::memory_order_release);
  }
  start_.notify_all();
  for (std::thread& t : workers_) t.join();
}

// Takes task t of the current job if no thread has. The job is read only after this succeeds:
// the claim reads the caller's reset of the bits, made after it set the job (bits at and above
// the job's task count start set). A thread still claiming for a job that has finished finds
// every bit set.
bool ThreadPool::claim(int task) {
  const std::uint64_t bit = std::uint64_t(1) << task;
  return (claimed_.fetch_or(bit, std::memory_order_acq_rel) & bit) == 0;
}

void ThreadPool::run_tasks(int index) {
  // Bits of this thread's own tasks (t % threads() == index).
  std::uint64_t own = 0;
  for (int t = index; t < 64; t += threads()) own |= std::uint64_t(1) << t;
  for (std::uint64_t open; (open = ~claimed_.load(std::memory_order_acquire)) != 0;) {
    const std::uint64_t mine = open & own;
    const int t = __builtin_ctzll(mine ? mine : open);
    if (!claim(t)) continue;
    if (!mine) taken_over_[index].fetch_add(1, std::memory_order_relaxed);
    try {
      (*job_)(t);
    } catch (...) {  // handed to the caller once every task has finished (run)
      std::lock_guard lock(mutex_);
      if (!error_) error_ = std::current_exception();
    }
    if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1 && index != 0) {
      std::lock_guard lock(mutex_);  // the caller may be waiting (run)
      done_.notify_one();
    }
  }
}

void ThreadPool::run(int tasks, const std::function<void(int)>& fn) {
  if (workers_.empty()) {
    for (int t = 0; t < tasks; ++t) fn(t);
    return;
  }
  if (tasks > 64) throw std::logic_error("ThreadPool::run: at most 64 tasks");
  job_ = &fn;
  pending_.store(tasks, std::memory_order_relaxed);
  for (auto& count : taken_over_) count.store(0, std::memory_order_relaxed);
  claimed_.store(tasks == 64 ? 0 : ~std::uint64_t(0) << tasks, std::memory_order_release);
  {
    // Under the mutex, so a worker deciding to sleep either sees the new generation or is
    // counted in sleeping_ before it is read below.
    std::lock_guard lock(mutex_);
    generation_.fetch_add(1, std::memory_order_release);
  }
  if (sleeping_.load(std::memory_order_acquire) > 0) start_.notify_all();
  run_tasks(0);
  bool done = false;
  for (int spin = 0; spin < kSpins && !done; ++spin) {
    done = pending_.load(std::memory_order_acquire) == 0;
    if (!done) relax();
  }
  if (!done) {
    std::unique_lock lock(mutex_);
    done_.wait(lock, [this] { return pending_.load(std::memory_order_acquire) == 0; });
  }
  // A task that threw, on whichever thread: raised here, after every task has finished, so no
  // thread still runs the job the caller is leaving.
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

void ThreadPool::work(int index) {
  long seen = 0;
  for (;;) {
    long now = generation_.load(std::memory_order_acquire);
    for (int spin = 0; now == seen && spin < kSpins; ++spin) {
      relax();
      now = generation_.load(std::memory_order_acquire);
    }
    if (now == seen) {
      std::unique_lock lock(mutex_);
      sleeping_.fetch_add(1, std::memory_order_acq_rel);
      start_.wait(lock, [&] { return generation_.load(std::memory_order_acquire) != seen; });
      sleeping_.fetch_sub(1, std::memory_order_acq_rel);
      now = generation_.load(std::memory_order_acquire);
    }
    seen = now;
    {
      std::lock_guard lock(mutex_);
      if (stop_) return;
    }
    run_tasks(index);
  }
}

}  // namespace stepwise
