#include <cmath>
#include <cstdint>
#include <cstring>

#include "core/lanes.hpp"
#include "core/quaternion.hpp"
#include "core/rotation_scheme.hpp"
#include "core/world.hpp"

namespace stepwise {

void RotationScheme::begin_step(World& world, const Positions& torque, double dt) {
  for_each_range(parallel_, world.size(),
                 [&](int, int begin, int end) { begin_range(world, torque, dt, begin, end); });
}

void RotationScheme::end_step(World& world, const Positions& torque, double dt) {
  for_each_range(parallel_, world.size(),
                 [&](int, int begin, int end) { end_range(world, torque, dt, begin, end); });
}

bool rotates_freely(const World& world, int i) {
  return (world.flags[i] & (kFixed | kDriven | kDrivenSpin)) == 0;
}

void advance_driven_orientation(World& world, int i, double dt) {
  if (world.flags[i] & kFixed) return;
  const Vec3 omega = world.w.col(i);
  world.q[i] = (quat::exp_map(omega * dt) * world.q[i]).normalized();
  world.set_angular_velocity(i, omega);
}

bool free_spheres(const World& world, int first, int count) {
  // Four bodies per test, without a branch per body: both rotation halves ask this of each range
  // every step (by_sphere_groups), and of each group of four where a range mixes shapes. The
  // same answer as the loop after it. (For speed only.)
  constexpr std::uint32_t kNotFree = (kFixed | kDriven | kPivot | kDrivenSpin) * 0x01010101u;
  const int end = first + count;
  int i = first;
  for (; i + 4 <= end; i += 4) {
    using namespace lanes;
    std::uint32_t flags;
    std::memcpy(&flags, world.flags.data() + i, 4);
    // Equal moments: World::sphere_moment is NaN (unequal to itself) where the three differ.
    const D4 moment = load(world.sphere_moment.data() + i);
    if ((flags & kNotFree) || !all_lanes(moment == moment)) return false;
  }
  for (; i < end; ++i)
    if (!rotates_freely(world, i) || !world.isotropic(i)) return false;
  return true;
}

namespace {

// Four free spheres: L += h/2 tau, w = L / I, in the order World::sync_angular_velocity uses.
// A free sphere's three moments are equal (free_spheres): each component of L is divided by
// that one moment (World::sphere_moment) spread over the components as stored, no shuffles.
void kick_spheres(World& world, const Positions& torque, double h, int first) {
  using namespace lanes;
  double* L = world.L.data() + 3 * first;
  const Stored I = spread_xyz(load(world.sphere_moment.data() + first));
  const Stored kicked = load_stored(L) + splat(0.5 * h) * load_stored(torque.data() + 3 * first);
  store_stored(L, kicked);
  store_stored(world.w.data() + 3 * first,
               {kicked.first / I.first, kicked.second / I.second, kicked.third / I.third});
}

void kick_body(World& world, const Positions& torque, double h, int i) {
  if (!rotates_freely(world, i)) return;
  world.L.col(i) += 0.5 * h * torque.col(i);
  world.sync_angular_velocity(i);
}

}  // namespace

void closing_half_kick(World& world, const Positions& torque, double h, int begin, int end) {
  by_sphere_groups(
      world, begin, end, [&](int i) { kick_spheres(world, torque, h, i); },
      [&](int i) { kick_body(world, torque, h, i); });
}

void closing_half_kick(World& world, const Positions& torque, double h, Parallel* parallel) {
  for_each_range(parallel, world.size(),
                 [&](int, int begin, int end) { closing_half_kick(world, torque, h, begin, end); });
}

}  // namespace stepwise
