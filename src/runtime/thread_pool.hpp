#pragma once
// Threads for the core's parallel loops (core/parallel.hpp). The caller's thread runs task 0.
// A physics step hands out a dozen short loops, so between calls the pool's threads spin for a
// moment before they sleep: waking a sleeping thread costs more than most of those loops.
#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "core/parallel.hpp"

namespace stepwise {

class ThreadPool final : public Parallel {
 public:
  explicit ThreadPool(int threads);
  ~ThreadPool() override;
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int threads() const override { return int(workers_.size()) + 1; }
  void run(int tasks, const std::function<void(int)>& fn) override;

 private:
  void work(int index);
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable start_, done_;
  const std::function<void(int)>* job_ = nullptr;  // published by generation_
  int tasks_ = 0;
  std::atomic<long> generation_{0};
  std::atomic<int> pending_{0};   // workers still on the current job
  std::atomic<int> sleeping_{0};  // workers waiting on start_
  bool stop_ = false;
};

}  // namespace stepwise
