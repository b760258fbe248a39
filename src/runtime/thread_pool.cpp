#include "runtime/thread_pool.hpp"

#include <algorithm>

namespace stepwise {

ThreadPool::ThreadPool(int threads) {
  for (int i = 1; i < std::max(threads, 1); ++i) workers_.emplace_back([this, i] { work(i); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  start_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void ThreadPool::run(int tasks, const std::function<void(int)>& fn) {
  {
    std::lock_guard lock(mutex_);
    job_ = &fn;
    tasks_ = tasks;
    busy_ = int(workers_.size());
    ++generation_;
  }
  start_.notify_all();
  // Task t runs on thread t % threads(); the caller takes the share of thread 0.
  for (int t = 0; t < tasks; t += threads()) fn(t);
  std::unique_lock lock(mutex_);
  done_.wait(lock, [this] { return busy_ == 0; });
  job_ = nullptr;
}

void ThreadPool::work(int index) {
  long seen = 0;
  for (;;) {
    const std::function<void(int)>* job;
    int tasks;
    {
      std::unique_lock lock(mutex_);
      start_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      job = job_;
      tasks = tasks_;
    }
    for (int t = index; t < tasks; t += threads()) (*job)(t);
    {
      std::lock_guard lock(mutex_);
      if (--busy_ == 0) done_.notify_one();
    }
  }
}

}  // namespace stepwise
