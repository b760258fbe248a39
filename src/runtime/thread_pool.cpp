#include "runtime/thread_pool.hpp"

#include <algorithm>

namespace stepwise {
namespace {

constexpr int kSpins = 20000;  // about 100 microseconds of polling before a thread sleeps

inline void relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

}  // namespace

ThreadPool::ThreadPool(int threads) {
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

void ThreadPool::run(int tasks, const std::function<void(int)>& fn) {
  if (workers_.empty()) {
    for (int t = 0; t < tasks; ++t) fn(t);
    return;
  }
  job_ = &fn;
  tasks_ = tasks;
  pending_.store(int(workers_.size()), std::memory_order_relaxed);
  {
    // Under the mutex, so a worker deciding to sleep either sees the new generation or is
    // counted in sleeping_ before it is read below.
    std::lock_guard lock(mutex_);
    generation_.fetch_add(1, std::memory_order_release);
  }
  if (sleeping_.load(std::memory_order_acquire) > 0) start_.notify_all();
  // Task t runs on thread t % threads(); the caller takes the share of thread 0.
  for (int t = 0; t < tasks; t += threads()) fn(t);
  for (int spin = 0; spin < kSpins; ++spin) {
    if (pending_.load(std::memory_order_acquire) == 0) return;
    relax();
  }
  std::unique_lock lock(mutex_);
  done_.wait(lock, [this] { return pending_.load(std::memory_order_acquire) == 0; });
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
    const std::function<void(int)>* job = job_;
    const int tasks = tasks_;
    for (int t = index; t < tasks; t += threads()) (*job)(t);
    if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      std::lock_guard lock(mutex_);
      done_.notify_one();
    }
  }
}

}  // namespace stepwise
