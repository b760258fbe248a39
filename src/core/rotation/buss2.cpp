// PFC's augmented second-order clump rotation (Buss 2000), PFC eqs 18-23: the average angular
// velocity over the step from a Taylor series, one exact rotation by it, then w from L.
#include "core/quaternion.hpp"
#include "core/rotation_scheme.hpp"
#include "core/world.hpp"

namespace stepwise {
namespace {

class Buss2 final : public RotationScheme {
 public:
  MethodInfo info() const override {
    return {"buss2", 2, false, false, 1,
            "Augmented second-order method (Buss 2000) as in PFC: estimate the mean angular "
            "velocity over the step, rotate by it exactly, recompute w from L. Angular momentum "
            "takes trapezoidal torque kicks.",
            "w = I^-1 L,  dw = I^-1 (M - w x L)\nw_bar = w + dw h/2 + (dw x w) h^2/12\n"
            "q(n+1) = (cos(|w_bar| h/2) + sin(|w_bar| h/2) w_bar/|w_bar|) q(n)\n"
            "L(n+1) = L(n) + h/2 (M(n) + M(n+1)),  w(n+1) = I(n+1)^-1 L(n+1)"};
  }

  void begin_step(World& world, const Positions& torque, double h) override {
    for (int i = 0; i < world.size(); ++i) {
      if (!rotates_freely(world, i)) {
        advance_driven_orientation(world, i, h);
        continue;
      }
      const Vec3 L = world.L.col(i);
      if (world.isotropic(i)) {  // spheres: w = L/I, no gyroscopic term, no frames
        const double inv_I = 1.0 / world.inertia(0, i);
        const Vec3 w = L * inv_I, dw = torque.col(i) * inv_I;
        const Vec3 w_bar = w + dw * (0.5 * h) + dw.cross(w) * (h * h / 12.0);
        // A sphere's orientation is only ever drawn: the Cayley form (1, h w_bar / 2) q turns by
        // 2 atan(|w_bar| h / 2), within (w h)^2/12 of exact, without a sine and cosine per body.
        const Vec3 half = 0.5 * h * w_bar;
        world.q[i] = (Quat(1.0, half.x(), half.y(), half.z()) * world.q[i]).normalized();
        world.L.col(i) += 0.5 * h * torque.col(i);
        world.w.col(i) = world.L.col(i) * inv_I;
        continue;
      }
      const Vec3 I = world.rotational_inertia(i);
      const Mat3 R = world.q[i].toRotationMatrix();
      auto inverse_inertia = [&](const Vec3& a) { return Vec3(R * (R.transpose() * a).cwiseQuotient(I)); };
      const Vec3 w = inverse_inertia(L);                                // eq 18
      const Vec3 dw = inverse_inertia(torque.col(i) - w.cross(L));      // eq 20
      const Vec3 w_bar = w + dw * (0.5 * h) + dw.cross(w) * (h * h / 12.0);  // eq 21
      world.q[i] = (quat::exp_map(w_bar * h) * world.q[i]).normalized();  // eq 22
      world.L.col(i) += 0.5 * h * torque.col(i);
      world.sync_angular_velocity(i);                                   // eq 23
    }
  }

  bool needs_end_torque() const override { return true; }
  void end_step(World& world, const Positions& torque, double h) override {
    closing_half_kick(world, torque, h);
  }
};

}  // namespace
STEPWISE_REGISTER_ROTATION("buss2", Buss2);
}  // namespace stepwise
