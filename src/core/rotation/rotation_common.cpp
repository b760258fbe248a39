#include <cmath>

#include "core/lanes.hpp"
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

bool free_spheres(const World& world, int first, int count) {
  for (int i = first; i < first + count; ++i)
    if (!rotates_freely(world, i) || !world.isotropic(i)) return false;
  return true;
}

namespace {

// Four free spheres: L += h/2 tau, w = L / I, in the order World::sync_angular_velocity uses.
void kick_spheres(World& world, const Positions& torque, double h, int first) {
  using namespace lanes;
  double* L = world.L.data() + 3 * first;
  double* w = world.w.data() + 3 * first;
  const double* tau = torque.data() + 3 * first;
  const double* I = world.inertia.data() + 3 * first;
  auto component = [](const double* p, int c) { return D4{p[c], p[3 + c], p[6 + c], p[9 + c]}; };
  const D4 moment = component(I, 0), half = splat(0.5 * h);
  for (int c = 0; c < 3; ++c) {
    const D4 kicked = component(L, c) + half * component(tau, c);
    const D4 spin = kicked / moment;
    for (int l = 0; l < 4; ++l) L[3 * l + c] = kicked[l], w[3 * l + c] = spin[l];
  }
}

void kick_body(World& world, const Positions& torque, double h, int i) {
  if (!rotates_freely(world, i)) return;
  world.L.col(i) += 0.5 * h * torque.col(i);
  world.sync_angular_velocity(i);
}

}  // namespace

void closing_half_kick(World& world, const Positions& torque, double h, int begin, int end) {
  int i = begin;
  for (; i + 4 <= end; i += 4) {
    if (free_spheres(world, i, 4))
      kick_spheres(world, torque, h, i);
    else
      for (int k = 0; k < 4; ++k) kick_body(world, torque, h, i + k);
  }
  for (; i < end; ++i) kick_body(world, torque, h, i);
}

void closing_half_kick(World& world, const Positions& torque, double h, Parallel* parallel) {
  for_each_range(parallel, world.size(),
                 [&](int, int begin, int end) { closing_half_kick(world, torque, h, begin, end); });
}

}  // namespace stepwise
