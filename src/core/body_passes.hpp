#pragma once
// Per-body loops of a step, run fused: a step makes a dozen passes over its bodies (kicks,
// rotation, drift, clearing, gravity, packing, combining, checking), each streaming arrays that do
// not fit in cache. Queued here and run block by block, each block's data is read from memory
// once for all of them. The ranges and the order within each range are those of for_each_range,
// so sums come out bit-identical to running the passes one after another.
#include <algorithm>
#include <array>
#include <climits>
#include <functional>
#include <stdexcept>
#include <vector>

#include "core/parallel.hpp"

namespace stepwise {

class BodyPasses {
 public:
  using Pass = std::function<void(int task, int begin, int end)>;
  using Finish = std::function<void()>;

  // pass(task, begin, end) is called on consecutive blocks of each task's range; what it sums per
  // task it keeps in slots (below) across calls. finish() runs after all passes, in queue order.
  void add(Pass pass, Finish finish = {}) {
    passes_.push_back({std::move(pass), std::move(finish)});
  }
  bool empty() const { return passes_.empty(); }
  int size() const { return int(passes_.size()); }
  // Counts the queue's runs and discards: with size(), tells whether a pass queued earlier is
  // still waiting, last in the queue, so that it can be swapped for one doing its work and the
  // next one's (Simulation's free-sphere sweep). For speed only.
  long generation() const { return generation_; }
  void replace_last(Pass pass, Finish finish = {}) {
    if (passes_.empty()) throw std::logic_error("BodyPasses: nothing queued to replace");
    passes_.back() = {std::move(pass), std::move(finish)};
  }
  // Drops what is queued (after a step that threw: its passes may refer to what is gone).
  void discard() {
    passes_.clear();
    used_ = 0;
    ++generation_;
  }

  // `count` groups of kMaxTasks zeroed doubles, valid until run() returns: a pass's per-task sums.
  double* slots(int count = 1) {
    if (used_ + count * kMaxTasks > int(arena_.size()))
      throw std::logic_error("BodyPasses: more per-task sums than the arena holds");
    double* out = arena_.data() + used_;
    std::fill(out, out + count * kMaxTasks, 0.0);
    used_ += count * kMaxTasks;
    return out;
  }

  // Bodies per block (rounded up to a multiple of kRangeAlign, as passes keeping values per run
  // of bodies need); a block as large as the bodies runs each pass over its whole range before
  // the next, as separate loops would (for comparisons).
  int block() const { return block_; }
  void set_block(int bodies) {
    const long rounded = (long(bodies) + kRangeAlign - 1) / kRangeAlign * kRangeAlign;
    block_ =
        bodies > 0 ? int(std::min<long>(rounded, INT_MAX / kRangeAlign * kRangeAlign)) : kBlock;
  }

  void run(Parallel* parallel, int n) {
    if (passes_.empty()) return;
    ++generation_;
    for_each_range(parallel, n, [&](int task, int begin, int end) {
      for (int block = begin, block_end; block < end; block = block_end) {
        block_end = end - block > block_ ? block + block_ : end;
        for (const Queued& q : passes_) q.pass(task, block, block_end);
      }
    });
    for (const Queued& q : passes_)
      if (q.finish) q.finish();
    passes_.clear();
    used_ = 0;
  }

 private:
  // Bodies per block: their arrays (a few hundred bytes a body, 4-7 MB) stay in the last-level
  // cache from one pass to the next. Blocks sized for the L2 cache (256 bodies) took 1.25x the
  // time at 1,000,000 bodies: every pass restarts its dozen memory streams at each block, and
  // short streams leave the hardware's prefetchers little to run ahead on. (For speed only.)
  static constexpr int kBlock = 16384;
  struct Queued {
    Pass pass;
    Finish finish;
  };
  std::vector<Queued> passes_;
  int block_ = kBlock;
  long generation_ = 0;
  std::array<double, 32 * kMaxTasks> arena_{};
  int used_ = 0;
};

}  // namespace stepwise
