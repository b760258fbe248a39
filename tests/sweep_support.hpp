#pragma once
// What the free-sphere sweep's tests share (test_sphere_sweep.cpp, test_sweep_prefetch.cpp).
#include <cstdint>
#include <functional>
#include <vector>

#include "core/sphere_sweep.hpp"
#include "core/world.hpp"
#include "test_support.hpp"

namespace stepwise::test {

// An opening sweep (dt 0.01) of the loads in force and torque, with drag loads `drag` (booked
// where marked) and the marks covering every torque (SphereSweep::torque_marked); its drag
// work into sums (8 x kMaxTasks), its counts into counts (null: none).
inline SphereSweep marked_sweep(Positions& force, Positions& torque, const Positions& drag,
                                const std::vector<std::uint8_t>& marks, double* sums,
                                SweepCounts* counts) {
  SphereSweep s;
  s.dt = 0.01;
  s.force = force.data();
  s.torque = &torque;
  s.drag_force = drag.data();
  s.drag_torque = drag.data();
  s.marks = marks.data();
  s.torque_marked = true;
  s.counts = counts;
  s.losses = sums;
  s.open = true;
  return s;
}

// n free spheres of radius 0.5 in a row along x, falling; body i spins at spin(i).
inline World row_of_spheres(int n, const std::function<Vec3(int)>& spin) {
  World world;
  for (int i = 0; i < n; ++i) {
    BodySpec b;
    b.radius = 0.5;
    b.mass = 1.0 + 0.1 * i;
    b.position = Vec3(1.5 * i, 0.0, 0.0);
    b.velocity = Vec3(0.1 * i, 0.0, -1.0);
    b.angular_velocity = spin(i);
    world.add_body(b);
  }
  return world;
}

// Two sweeps' states the same to the bit: positions, velocities, L, w, loads and orientations.
inline void check_same_sweep(const World& a, const Positions& force_a, const Positions& torque_a,
                             const World& b, const Positions& force_b, const Positions& torque_b) {
  CHECK(same_bits(a.x, b.x));
  CHECK(same_bits(a.v, b.v));
  CHECK(same_bits(a.L, b.L));
  CHECK(same_bits(a.w, b.w));
  CHECK(same_bits(force_a, force_b));
  CHECK(same_bits(torque_a, torque_b));
  for (int i = 0; i < a.size(); ++i) CHECK(a.q[i].coeffs() == b.q[i].coeffs());
}

}  // namespace stepwise::test
