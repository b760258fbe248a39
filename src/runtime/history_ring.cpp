#include "runtime/history_ring.hpp"

#include <algorithm>

#include "runtime/memory_check.hpp"

namespace stepwise {

void HistoryRing::reset(int bodies, std::size_t budget_bytes) {
  entries_.clear();
  // A checkpoint holds the World, its models' contacts and the cached loads (0.9-1.3 kB a
  // settling sphere, measured); taken as a run is in memory_check.
  const double per_checkpoint = 65536 + kBytesPerBody * std::max(bodies, 1);
  capacity_ = std::size_t(std::min(double(budget_bytes) / per_checkpoint, 2000.0));
  // Every 25 steps, or where fewer than 40 fit, further apart so that they still reach 1,000
  // steps back (and a large scene is not copied every 25 steps for two checkpoints).
  every_ = capacity_ >= 40 || capacity_ == 0 ? 25 : long(25 * ((40 + capacity_ - 1) / capacity_));
}

std::size_t HistoryRing::default_budget() {
  const double available = available_memory();
  if (!(available > 0)) return kFallbackBudget;
  return std::size_t(std::min(available / 4, double(std::size_t(1) << 30)));
}

void HistoryRing::record_if_due(Simulation& sim) {
  if (capacity_ == 0 || sim.step_count() % every_ != 0) return;
  if (!entries_.empty() && entries_.back().step == sim.step_count() &&
      entries_.back().time == sim.time())
    return;
  // A full ring takes the new checkpoint into the oldest one: no more than capacity at any
  // time (only reset sets it, emptying the ring), and its arrays' storage used again.
  Simulation::Copy c;
  if (entries_.size() >= capacity_) {
    c = std::move(entries_.front());
    entries_.pop_front();
  }
  sim.copy_into(c);
  entries_.push_back(std::move(c));
}

std::unique_ptr<Simulation> HistoryRing::restore(std::size_t k) const {
  if (k >= entries_.size()) throw InputError("no checkpoint #" + std::to_string(k));
  return Simulation::make_run(entries_[k]);
}

void HistoryRing::truncate_after(std::size_t k) {
  if (k + 1 < entries_.size()) entries_.erase(entries_.begin() + long(k) + 1, entries_.end());
}

std::vector<double> HistoryRing::times() const {
  std::vector<double> out;
  out.reserve(entries_.size());
  for (const Simulation::Copy& c : entries_) out.push_back(c.time);
  return out;
}

}  // namespace stepwise
