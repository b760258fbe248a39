#pragma once
// A memory-bounded ring of past states, every few steps, for the scrubber and "step back".
// Each checkpoint is a World plus the simulation's carried state, so restoring one continues
// exactly as the run did from there (the same mechanism as saved scene files).
#include <deque>
#include <memory>
#include <vector>

#include "core/simulation.hpp"

namespace stepwise {

class HistoryRing {
 public:
  // Sizes the ring for a scene: as many checkpoints as `budget_bytes` holds (each taken at
  // memory_check's kBytesPerBody a body), at most 2000; none for a scene whose one checkpoint
  // would not fit (200,000 spheres' 40 checkpoints took 11 GB); every 25 steps, or as far apart
  // as makes fewer than 40 reach 1,000 steps back.
  static constexpr std::size_t kFallbackBudget = std::size_t(192) << 20;
  void reset(int bodies, std::size_t budget_bytes = kFallbackBudget);
  // The memory kept for checkpoints: a quarter of what is available, at most 1 GiB
  // (kFallbackBudget where what is available is not known).
  static std::size_t default_budget();
  void record_if_due(Simulation& sim);
  // A new simulation at checkpoint k (0 = oldest).
  std::unique_ptr<Simulation> restore(std::size_t k) const;
  // Forgets the checkpoints after k (the run continues from k on a new timeline).
  void truncate_after(std::size_t k);
  std::size_t size() const { return entries_.size(); }
  const Simulation::Copy& checkpoint(std::size_t k) const { return entries_.at(k); }
  std::size_t capacity() const { return capacity_; }
  std::vector<double> times() const;
  long every() const { return every_; }

 private:
  std::deque<Simulation::Copy> entries_;
  std::size_t capacity_ = 100;
  long every_ = 25;
};

}  // namespace stepwise
