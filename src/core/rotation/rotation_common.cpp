#include <cmath>

#include "core/quaternion.hpp"
#include "core/rotation_scheme.hpp"
#include "core/world.hpp"

namespace stepwise {

bool rotates_freely(const World& world, int i) {
  return (world.flags[i] & (kFixed | kDriven | kDrivenSpin)) == 0;
}

void advance_driven_orientation(World& world, int i, double dt) {
  if (world.flags[i] & kFixed) return;
  const Vec3 omega = world.w.col(i);
  world.q[i] = (quat::exp_map(omega * dt) * world.q[i]).normalized();
  world.set_angular_velocity(i, omega);
}

void closing_half_kick(World& world, const Positions& torque, double h, Parallel* parallel) {
  for_each_range(parallel, world.size(), [&](int, int begin, int end) {
    for (int i = begin; i < end; ++i) {
      if (!rotates_freely(world, i)) continue;
      world.L.col(i) += 0.5 * h * torque.col(i);
      world.sync_angular_velocity(i);
    }
  });
}

}  // namespace stepwise
