// PFC's augmented second-order clump rotation (Buss 2000), PFC eqs 18-23: the average angular
// velocity over the step from a Taylor series, one exact rotation by it, then w from L.
#include <cmath>

#include "core/quaternion.hpp"
#include "core/rotation/sphere_lanes.hpp"
#include "core/rotation_scheme.hpp"
#include "core/world.hpp"

namespace stepwise {
namespace {

// (1, a) q, normalised; written out in scalars because Eigen's quaternion product stores its
// halves and reloads them whole, a store-forwarding stall in the hottest per-body loop.
Quat cayley_turn(const Vec3& a, const Quat& q) {
  const double w = q.w() - (a.x() * q.x() + a.y() * q.y() + a.z() * q.z());
  const double x = q.x() + q.w() * a.x() + (a.y() * q.z() - a.z() * q.y());
  const double y = q.y() + q.w() * a.y() + (a.z() * q.x() - a.x() * q.z());
  const double z = q.z() + q.w() * a.z() + (a.x() * q.y() - a.y() * q.x());
  // |q|^2 = 1 + e with e about |a|^2: for small turns the series of (1 + e)^-1/2 to e^2 is exact
  // to round-off (|e| < 1e-5) and keeps a square root and a division out of the loop.
  const double e = (w * w + x * x + y * y + z * z) - 1.0;
  const double inv = std::abs(e) < 1e-5 ? 1.0 - 0.5 * e + 0.375 * e * e : 1.0 / std::sqrt(1.0 + e);
  return Quat(w * inv, x * inv, y * inv, z * inv);
}

class Buss2 final : public RotationScheme {
 public:
  MethodInfo info() const override {
    return {"buss2",
            2,
            false,
            false,
            1,
            "Augmented second-order method (Buss 2000) as in PFC: estimate the mean angular "
            "velocity over the step, rotate by it exactly, recompute w from L. Angular momentum "
            "takes trapezoidal torque kicks.",
            "w = I^-1 L,  dw = I^-1 (M - w x L)\nw_bar = w + dw h/2 + (dw x w) h^2/12\n"
            "q(n+1) = (cos(|w_bar| h/2) + sin(|w_bar| h/2) w_bar/|w_bar|) q(n)\n"
            "L(n+1) = L(n) + h/2 (M(n) + M(n+1)),  w(n+1) = I(n+1)^-1 L(n+1)"};
  }

  bool needs_end_torque() const override { return true; }
  bool by_ranges() const override { return true; }
  bool halves_are_buss2() const override { return true; }
  void begin_range(World& world, const Positions& torque, double h, int begin, int end) override {
    by_sphere_groups(
        world, begin, end,
        [&](int i) { sphere_lanes::buss2_first_half(world, torque.data(), h, i); },
        [&](int i) { step_body(world, torque, h, i); });
  }
  void end_range(World& world, const Positions& torque, double h, int begin, int end) override {
    closing_half_kick(world, torque, h, begin, end);
  }

 private:
  static void step_body(World& world, const Positions& torque, double h, int i) {
    if (!rotates_freely(world, i)) {
      advance_driven_orientation(world, i, h);
      return;
    }
    const Vec3 L = world.L.col(i);
    if (world.isotropic(i)) {  // spheres: w = L/I, no gyroscopic term, no frames
      const double inv_I = 1.0 / world.inertia(0, i);
      const Vec3 w = L * inv_I, dw = torque.col(i) * inv_I;
      const Vec3 w_bar = w + dw * (0.5 * h) + dw.cross(w) * (h * h / 12.0);
      // A sphere's orientation is only ever drawn: the Cayley form (1, h w_bar / 2) q turns by
      // 2 atan(|w_bar| h / 2), within (w h)^2/12 of exact, without a sine and cosine per body.
      // A sphere standing still keeps q as stored (turned by zero, the form would only
      // renormalise it, unit to round-off already).
      const Vec3 a = 0.5 * h * w_bar;
      if (a.x() != 0 || a.y() != 0 || a.z() != 0) world.q[i] = cayley_turn(a, world.q[i]);
      world.L.col(i) += 0.5 * h * torque.col(i);
      world.w.col(i) = world.L.col(i) * inv_I;
      return;
    }
    const Vec3 I = world.rotational_inertia(i);
    const Mat3 R = world.q[i].toRotationMatrix();
    auto inverse_inertia = [&](const Vec3& a) {
      return Vec3(R * (R.transpose() * a).cwiseQuotient(I));
    };
    const Vec3 w = inverse_inertia(L);                                     // eq 18
    const Vec3 dw = inverse_inertia(torque.col(i) - w.cross(L));           // eq 20
    const Vec3 w_bar = w + dw * (0.5 * h) + dw.cross(w) * (h * h / 12.0);  // eq 21
    world.q[i] = (quat::exp_map(w_bar * h) * world.q[i]).normalized();     // eq 22
    world.L.col(i) += 0.5 * h * torque.col(i);
    world.sync_angular_velocity(i);  // eq 23
  }
};

}  // namespace
STEPWISE_REGISTER_ROTATION("buss2", Buss2);
}  // namespace stepwise
