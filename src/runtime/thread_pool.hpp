#pragma once
// Threads for the core's parallel loops (core/parallel.hpp). The caller's thread runs task 0;
// the pool's threads wait for work between calls.
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
  const std::function<void(int)>* job_ = nullptr;
  int tasks_ = 0;
  long generation_ = 0;
  int busy_ = 0;
  bool stop_ = false;
};

}  // namespace stepwise
