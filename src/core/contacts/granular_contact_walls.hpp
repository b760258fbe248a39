#pragma once
// GranularContacts' bodies against its walls (granular_contact.hpp): a task's range screened
// four bodies at a time (only the blocks WallCandidates says can reach a wall), each body near
// a wall or holding a wall spring taken over the walls, and the touching ones computed four at a
// time (granular_walls.hpp).
#include "core/contacts/granular_contact.hpp"

namespace stepwise {

template <class Law>
template <bool Commit>
void GranularContacts<Law>::wall_range(const EvalContext& ctx, const ContactParams& params,
                                       int begin, int end, Task& task) {
  const double* x = state_.x;
  const double* radius = state_.radius;
  // Four bodies at a time are screened against every plane; only a body touching one,
  // or still holding a wall spring (a bit per wall), takes the loop over the walls.
  const int wall_count = int(walls_.size());
  if (int(task.wall_slots.size()) < (end - begin) * wall_count + 4)
    task.wall_slots.resize((end - begin) * wall_count + 4);
  int touching = 0;
  int i = begin;
  if (wall_count > 0 && wall_count <= 64) {
    using namespace lanes;
    const bool blocks = screen_blocks();
    // For speed only: past the cache, the unscreened groups are short runs scattered along the
    // bodies, each read first from the memory; so the rows of the one kWallsAhead unscreened
    // groups ahead are asked for (1M landing grains: 0.98 of the time).
    const bool ask = ask_ahead_ && blocks;
    int ahead = i;
    auto ask_next = [&] {
      while (ahead + 4 <= end && wall_candidates_.far(ahead)) ahead += 4;
      if (ahead + 4 > end) return;
      lanes::prefetch(wall_engaged_.data() + ahead), lanes::prefetch(radius + ahead);
      lanes::prefetch(x + 3 * ahead), lanes::prefetch(x + 3 * ahead + 11);
      ahead += 4;
    };
    for (int k = 0; ask && k < kWallsAhead; ++k) ask_next();
    for (; i + 4 <= end; i += 4) {
      if (blocks && wall_candidates_.far(i)) continue;  // none of the four can touch a wall
      if (ask) ask_next();
      int near = 0;
      for (int l = 0; l < 4; ++l) near |= (wall_engaged_[i + l] != 0) << l;
      const V3 p = load_xyz(x + 3 * i);
      const D4 r = load(radius + i);
      for (int w = 0; w < wall_count && near != 15; ++w) {
        const Vec3& n = walls_[w].normal;
        const D4 gap = ((p.x * n.x() + p.y * n.y()) + p.z * n.z() - wall_offset_[w]) - r;
        near |= mask_bits(gap < 0);
      }
      for (int l = 0; l < 4; ++l)
        if (near >> l & 1) collect_walls<Commit>(i + l, ctx, task, touching);
    }
  }
  if (wall_count > 0)
    for (; i < end; ++i) collect_walls<Commit>(i, ctx, task, touching);
  if (touching == 0) return;
  for (int p = touching; p % 4 != 0; ++p) task.wall_slots[p] = task.wall_slots[touching - 1];
  for (int p = 0; p < touching; ++p) task.loads.mark(task.wall_slots[p].i);
  WallSums wall_sums;
  touching_walls<Law, Commit>(laws_, params, packed(), planes_.data(), wall_count,
                              task.wall_slots.data(), touching, wall_history_.data(),
                              task.loads.data(), wall_sums);
  task.sums.potential += wall_sums.potential;
  task.sums.capped += wall_sums.capped;
  // A moving wall works on the system; its dashpot's share against the wall's motion.
  task.sums.external += wall_sums.external;
  task.sums.dissipation += wall_sums.dissipation;
  task.sums.contacts += touching;
  task.sums.walls += touching;
}

// Body i against every wall: the walls it touches are queued for touching_walls; a wall it
// has left lets go of its spring.
template <class Law>
template <bool Commit>
void GranularContacts<Law>::collect_walls(int i, const EvalContext& ctx, Task& task,
                                          int& touching) {
  const double* a = state_.x + 3 * i;
  const double ri = state_.radius[i];
  const int wall_count = int(walls_.size());
  for (int w = 0; w < wall_count; ++w) {
    const std::uint64_t bit = w < 64 ? std::uint64_t{1} << w : 0;
    // A wall with a velocity moves: its plane passes point + velocity t. (The same sum as the
    // screening above and the kernel, so all agree on every gap's sign.)
    const Vec3& n = walls_[w].normal;
    const double gap = ((a[0] * n.x() + a[1] * n.y()) + a[2] * n.z() - wall_offset_[w]) - ri;
    if (gap >= 0) {
      if constexpr (Commit) {
        // Only a wall it touched since its spring was last let go can hold one (walls past
        // the 64th have no bit, so are always looked at).
        if (bit == 0 || (wall_engaged_[i] & bit)) {
          Spring& history = wall_history_[size_t(i) * wall_count + w];
          if (history.xi != Vec3::Zero())
            release(history, wall_slip(i, walls_[w]), laws_.wall(w, material_[i]).release_kt(),
                    ctx.dt, task.sums);
          wall_engaged_[i] &= ~bit;
        }
      }
      continue;
    }
    if constexpr (Commit) wall_engaged_[i] |= bit;
    task.wall_slots[touching++] = {i, w};
  }
}

// Contact slip velocity of a body against a wall.
template <class Law>
Vec3 GranularContacts<Law>::wall_slip(int i, const Wall& wall) const {
  return velocity(i) - wall.velocity - state_.radius[i] * spin(i).cross(wall.normal);
}

}  // namespace stepwise
