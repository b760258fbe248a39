#include <cmath>

#include "core/quaternion.hpp"
#include "core/rotation/sphere_lanes.hpp"
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
  // Four bodies per test (sphere_lanes::free_four): both rotation halves ask this of each range
  // every step (by_sphere_groups), and of each group of four where a range mixes shapes. The
  // same answer as the loop after it. (For speed only.)
  const int end = first + count;
  int i = first;
  for (; i + 4 <= end; i += 4)
    if (!sphere_lanes::free_four(world, i)) return false;
  for (; i < end; ++i)
    if (!rotates_freely(world, i) || !world.isotropic(i)) return false;
  return true;
}

namespace {

void kick_body(World& world, const Positions& torque, double h, int i) {
  if (!rotates_freely(world, i)) return;
  world.L.col(i) += 0.5 * h * torque.col(i);
  world.sync_angular_velocity(i);
}

}  // namespace

void closing_half_kick(World& world, const Positions& torque, double h, int begin, int end) {
  by_sphere_groups(
      world, begin, end, [&](int i) { sphere_lanes::closing_kick(world, torque.data(), h, i); },
      [&](int i) { kick_body(world, torque, h, i); });
}

void closing_half_kick(World& world, const Positions& torque, double h, Parallel* parallel) {
  for_each_range(parallel, world.size(),
                 [&](int, int begin, int end) { closing_half_kick(world, torque, h, begin, end); });
}

}  // namespace stepwise
