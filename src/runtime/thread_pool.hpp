#pragma once
// Threads for the core's parallel loops (core/parallel.hpp). A physics step hands out a dozen
// short loops, so between calls the pool's threads spin for a moment before they sleep: waking a
// sleeping thread costs more than most of those loops.
//
// Each thread first runs its own tasks (task t is thread t % threads()'s, the caller's thread
// being thread 0), then any task no thread has started: a thread that is late (asleep, or its
// core lent to another process) does not hold the loop up while another is idle. Which thread
// runs a task never changes what it computes (tasks keep their own sums and scratch), so runs stay
// bit-identical for a thread count. A task that throws has its exception raised by run() once
// every task has finished.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
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

  // Tasks of the last run() the thread given ran for another (t % threads() != thread). For the
  // tests, which make a thread late and see another take its share.
  int taken_over(int thread) const { return taken_over_[thread].load(std::memory_order_relaxed); }

 private:
  void work(int index);
  bool claim(int task);
  void run_tasks(int index);  // the thread's own tasks, then any left
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable start_, done_;
  const std::function<void(int)>* job_ = nullptr;          // read only by a thread holding a claim
  std::atomic<std::uint64_t> claimed_{~std::uint64_t(0)};  // bit t: task t taken (or none)
  std::atomic<long> generation_{0};
  std::atomic<int> pending_{0};   // tasks of the current job not yet finished
  std::atomic<int> sleeping_{0};  // workers waiting on start_
  std::vector<std::atomic<int>> taken_over_;
  std::exception_ptr error_;  // the first task's exception, under mutex_ until all have finished
  bool stop_ = false;
};

}  // namespace stepwise
