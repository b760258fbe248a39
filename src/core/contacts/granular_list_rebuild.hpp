#pragma once
// GranularContacts' neighbour list rebuilt (granular_contact.hpp): each pair's tangential spring
// carried to its slot in the new list, the springs of pairs that left it let go and booked, the
// shape pairs, loaded history and exclusions brought up to date.
#include "core/contacts/granular_contact.hpp"

namespace stepwise {

template <class Law>
void GranularContacts<Law>::rebuild(const World& world, const Positions& x, Parallel* parallel,
                                    double commit_dt) {
  const VecX& radius = world.radius;
  // Carry each pair's history over to the new list (both lists are sorted per body).
  const std::vector<int> old_offsets = list_.offsets(), old_neighbors = list_.neighbors();
  // (A slot not held holds no spring, so only held ones are read: the rows of pairs that never
  // touched stay memory never touched, ZeroedArray.)
  ZeroedArray<Spring> old_history;
  old_history.swap(history_);
  std::vector<std::uint8_t> old_held;
  old_held.swap(held_);
  list_.build(x, radius, parallel);
  const auto& offsets = list_.offsets();
  const auto& neighbors = list_.neighbors();
  history_.assign_zero(neighbors.size());
  held_.resize(neighbors.size());
  gaps_.resize(neighbors.size());
  const int old_n = static_cast<int>(old_offsets.size()) - 1;
  for_each_range(parallel, list_.size(), [&](int, int begin, int end) {
    for (int i = begin; i < end; ++i) {
      int a = i < old_n ? old_offsets[i] : 0;
      const int a_end = i < old_n ? old_offsets[i + 1] : 0;
      for (int k = offsets[i]; k < offsets[i + 1]; ++k) {
        const int j = neighbors[k];
        while (a < a_end && old_neighbors[a] < j) ++a;
        const bool kept = a < a_end && old_neighbors[a] == j && old_held[a];
        if (kept) history_[k] = old_history[a];
        held_[k] = kept && engaged(old_history[a]);
        gaps_[k] = held_[k] ? kAlwaysTest : gap_at_build(x, radius, i, j);
      }
    }
  });
  Sums released;
  for (int i = 0; commit_dt > 0 && i < std::min(old_n, list_.size()); ++i)
    for (int a = old_offsets[i]; a < old_offsets[i + 1]; ++a) {
      const int j = old_neighbors[a];
      if (j >= list_.size() || !old_held[a] || !engaged(old_history[a]) ||
          std::binary_search(neighbors.begin() + offsets[i], neighbors.begin() + offsets[i + 1], j))
        continue;
      release_pair(i, j, old_history[a], commit_dt, released);
    }
  committed_dissipation_ += released.capped;
  shapes_.rebuild(world, list_, int(walls_.size()), gaps_, exclusions_);
  // History loaded with a state: it and the list are both sorted by pair, walked together.
  size_t p = 0;
  for (int i = 0; p < pending_pairs_.size() && i < list_.size(); ++i)
    for (int k = offsets[i]; k < offsets[i + 1]; ++k) {
      const std::pair<int, int> pair{i, neighbors[k]};
      while (p < pending_pairs_.size() && pending_pairs_[p] < pair) ++p;
      if (p == pending_pairs_.size() || pending_pairs_[p] != pair) continue;
      history_[k] = pending_springs_[p];
      held_[k] = 1;
      gaps_[k] = kAlwaysTest;
    }
  drop_pending();
  exclusions_.mask(list_, gaps_);
}

}  // namespace stepwise
