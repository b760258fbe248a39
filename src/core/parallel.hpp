#pragma once
// How the core can be handed more cores without owning a thread: the runtime layer implements
// this (a thread pool) and a Simulation passes it to its integrators and force models. Loops are
// split into a fixed number of tasks whose results are combined in task order, so a run is
// bit-identical for a given thread count.
#include <functional>

namespace stepwise {

// Below this many bodies a loop is not worth handing out.
constexpr int kParallelMinBodies = 2048;
// Below this many contact pairs of other shapes (each a narrow-phase call) neither.
constexpr int kParallelMinPairs = 256;

class Parallel {
 public:
  virtual ~Parallel() = default;
  virtual int threads() const = 0;
  // Calls fn(0) ... fn(tasks - 1), possibly at once, and returns when all have finished.
  virtual void run(int tasks, const std::function<void(int task)>& fn) = 0;
  // The sizes above, below which one task does it all. Tests lower them, so that worlds of a few
  // dozen bodies take the split paths (uneven and empty ranges) that otherwise need thousands.
  virtual int min_bodies() const { return kParallelMinBodies; }
  virtual int min_pairs() const { return kParallelMinPairs; }
};
constexpr int kMaxTasks = 64;  // per-task sums live in fixed arrays of this size

// How many ranges for_each_range splits n bodies into.
inline int range_count(const Parallel* parallel, int n) {
  if (!parallel || parallel->threads() <= 1 || n < parallel->min_bodies()) return 1;
  return parallel->threads() < kMaxTasks ? parallel->threads() : kMaxTasks;
}

// Ranges start at multiples of this many bodies, so what a pass keeps per block of 16 bodies
// (ContactCandidates' displacements) is written by one task only.
constexpr int kRangeAlign = 16;
// Where range t of `tasks` over n bodies starts (t = tasks: n).
inline int range_start(int n, int t, int tasks) {
  return t >= tasks ? n : int(long(n) * t / tasks) / kRangeAlign * kRangeAlign;
}

// Calls fn(task, begin, end) over range_count(parallel, n) consecutive ranges covering [0, n).
// Sums a loop makes go per task and are added in task order by the caller.
template <class Fn>
void for_each_range(Parallel* parallel, int n, Fn&& fn) {
  const int tasks = range_count(parallel, n);
  if (tasks == 1) {
    fn(0, 0, n);
    return;
  }
  parallel->run(tasks,
                [&](int t) { fn(t, range_start(n, t, tasks), range_start(n, t + 1, tasks)); });
}

}  // namespace stepwise
