#pragma once
// How the core can be handed more cores without owning a thread: the runtime layer implements
// this (a thread pool) and a Simulation passes it to its force models. Models split their loops
// into a fixed number of tasks and combine the results in task order, so a run is bit-identical
// for a given thread count.
#include <functional>

namespace stepwise {

class Parallel {
 public:
  virtual ~Parallel() = default;
  virtual int threads() const = 0;
  // Calls fn(0) ... fn(tasks - 1), possibly at once, and returns when all have finished.
  virtual void run(int tasks, const std::function<void(int task)>& fn) = 0;
};

}  // namespace stepwise
