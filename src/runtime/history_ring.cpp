#include "runtime/history_ring.hpp"

#include <algorithm>

namespace stepwise {

void HistoryRing::reset(int bodies, std::size_t budget_bytes) {
  entries_.clear();
  // A checkpoint holds the World and the cached forces: roughly 600 bytes per body.
  const std::size_t per_checkpoint = std::size_t(std::max(bodies, 1)) * 600 + 4096;
  capacity_ = std::clamp<std::size_t>(budget_bytes / per_checkpoint, 40, 2000);
  every_ = 25;
}

void HistoryRing::record_if_due(Simulation& sim) {
  if (sim.step_count() % every_ != 0) return;
  if (!entries_.empty() && entries_.back().step == sim.step_count() &&
      entries_.back().time == sim.time())
    return;
  entries_.push_back(sim.copy());
  while (entries_.size() > capacity_) entries_.pop_front();
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
