#pragma once
// GranularContacts' bodies against their list partners (granular_contact.hpp): the candidates'
// overlap test, walked down the list, hands the touching pairs to the four-at-a-time kernel
// (granular_pairs.hpp) in pieces while their rows are in the cache; then the walls
// (granular_contact_walls.hpp).
#include <type_traits>

#include "core/contacts/granular_contact.hpp"

namespace stepwise {

// Bodies [begin, end) against their list partners and the walls: the overlapping pairs are
// collected and computed four at a time (granular_pairs.hpp), kPairChunk pairs at a time, then
// the walls' (wall_range).
template <class Law>
template <bool Commit>
void GranularContacts<Law>::pair_range(const StateView& s, const EvalContext& ctx, int begin,
                                       int end, Task& task) {
  const int* offsets = list_.offsets().data();
  const int* neighbors = list_.neighbors().data();
  const double* x = state_.x;
  const double* radius = state_.radius;
  const int most = offsets[end] - offsets[begin];
  if (task.pair_i.size() < size_t(most) + 4) {  // (what they held is not read again)
    for (auto* v : {&task.pair_i, &task.pair_k, &task.open_i, &task.open_k})
      v->assign_zero(size_t(most) + 4);
  }
  int* pair_i = task.pair_i.data();
  int* pair_k = task.pair_k.data();
  int* open_i = task.open_i.data();
  int* open_k = task.open_k.data();
  // The candidates: the slots whose gap at the build leaves room to touch within their blocks'
  // limits (a sequential scan), kept until a block outgrows its limit or the list changes.
  if (candidates_.stale() || task.candidates_from != begin || task.candidates_to != end) {
    task.candidates =
        candidates_.find(list_, gaps_.data(), begin, end, task.candidate_i, task.candidate_k);
    task.candidates_from = begin;
    task.candidates_to = end;
  }
  const int candidates = task.candidates;
  const ContactParams params = this->params(ctx.dt);
  PairLanes pair_lanes;
  // The kernel on pairs (body[p], slot[p]), p < count, and their bodies marked (held_marks true:
  // their slots too, as possibly holding a spring). Not inlined, for speed only: kept out of the
  // overlap test's loop, which calls it once a piece.
  auto kernel = [&](auto held_marks, const int* body, const int* slot, int count)
      __attribute__((noinline)) {
    touching_pairs<Law, Commit>(laws_, params, packed(), neighbors, body, slot, count,
                                history_.data(), task.loads.data(), pair_lanes);
    mark_pairs<decltype(held_marks)::value>(task, body, slot, count);
  };
  // When nearly all candidates touch (a settled packing), the kernel takes them as they are
  // and masks out the few that do not; otherwise the touching ones are picked out first.
  if (candidates <= task.touching + task.touching / 4) {
    kernel(std::bool_constant<Commit>{}, task.candidate_i.data(), task.candidate_k.data(),
           candidates);
  } else {
    const int* candidate_i = task.candidate_i.data();
    const int* candidate_k = task.candidate_k.data();
    std::uint8_t* held = held_.data();
    int count = 0, opened = 0;
    for (int p = 0; p < candidates; ++p) {  // branch-free: both slots written, kept if it passes
      if (ask_ahead_ && p + kCandidatesAhead < candidates) {  // (for speed only: both rows)
        const int ahead = neighbors[candidate_k[p + kCandidatesAhead]];
        lanes::prefetch(x + 3 * ahead), lanes::prefetch(radius + ahead);
        const int first = candidate_i[p + kCandidatesAhead];
        lanes::prefetch(x + 3 * first), lanes::prefetch(radius + first);
      }
      const int i = candidate_i[p], k = candidate_k[p];
      const int j = neighbors[k];
      const double* a = x + 3 * i;
      const double* b = x + 3 * j;
      const double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
      const double reach = radius[i] + radius[j];
      const bool touching = dx * dx + dy * dy + dz * dz < reach * reach;
      pair_i[count] = i;
      pair_k[count] = k;
      count += touching;
      if (count == kPairChunk) {  // (for speed only: kPairChunk; held_ is set below)
        kernel(std::false_type{}, pair_i, pair_k, count);
        count = 0;
      }
      if constexpr (Commit) {  // (a byte per slot: the springs themselves are not read here)
        open_i[opened] = i;
        open_k[opened] = k;
        opened += int(!touching) & held[k];
        held[k] = touching;
      }
    }
    // Pairs that just opened let go of their tangential springs.
    for (int p = 0; p < opened; ++p)
      if (engaged(history_[open_k[p]]))
        release_pair(open_i[p], neighbors[open_k[p]], history_[open_k[p]], ctx.dt, task.sums);
    for (int p = count; count > 0 && p % 4 != 0; ++p)  // the kernel's last batch, padded
      pair_i[p] = pair_i[count - 1], pair_k[p] = pair_k[count - 1];
    kernel(std::false_type{}, pair_i, pair_k, count);  // (their held_ was set above)
  }
  PairSums pair_sums;
  pair_lanes.fold(pair_sums);
  task.touching = pair_sums.contacts;
  task.sums.potential += pair_sums.potential;
  task.sums.capped += pair_sums.capped;
  task.sums.contacts += pair_sums.contacts;
  wall_range<Commit>(ctx, params, begin, end, task);
}

}  // namespace stepwise
