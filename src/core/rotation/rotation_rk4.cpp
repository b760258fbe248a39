// PFC's fourth-order clump rotation (Johnson et al. 2008), PFC eqs 24-33: classical RK4 on
// q' = 1/2 (q J^-1 q* L) q with L held over the step, then w from L.
#include "core/rotation_scheme.hpp"
#include "core/world.hpp"

namespace stepwise {
namespace {

// q' = 1/2 w q with w = q J^-1 q* L (world frame); q need not be unit inside the stages.
Quat derivative(const Quat& q, const Vec3& J, const Vec3& L) {
  const Quat unit = q.normalized();
  const Vec3 w = unit * (unit.conjugate() * L).cwiseQuotient(J);
  Quat d = Quat(0, w.x(), w.y(), w.z()) * q;
  d.coeffs() *= 0.5;
  return d;
}

class RotationRk4 final : public RotationScheme {
 public:
  MethodInfo info() const override {
    return {"rk4", 4, false, false, 4,
            "Fourth-order Runge-Kutta on the quaternion ODE with the angular momentum held over "
            "the step (PFC / Johnson et al. 2008). Fourth order for free rotation; L takes "
            "trapezoidal torque kicks and is held at its mid-step value.",
            "q' = 1/2 (q J^-1 q* L) q\nk1 = q'(q),  k2 = q'(q + h/2 k1),  k3 = q'(q + h/2 k2),  "
            "k4 = q'(q + h k3)\nq(n+1) = q + h/6 (k1 + 2 k2 + 2 k3 + k4),  w(n+1) = I^-1 L"};
  }

  void begin_step(World& world, const Positions& torque, double h) override {
    for (int i = 0; i < world.size(); ++i) {
      if (!rotates_freely(world, i)) {
        advance_driven_orientation(world, i, h);
        continue;
      }
      world.L.col(i) += 0.5 * h * torque.col(i);
      const Vec3 J = world.rotational_inertia(i);
      const Vec3 L = world.L.col(i);
      const Quat q = world.q[i];
      auto shifted = [&](const Quat& k, double s) {
        Quat out = q;
        out.coeffs() += s * k.coeffs();
        return out;
      };
      const Quat k1 = derivative(q, J, L);                    // eq 27
      const Quat k2 = derivative(shifted(k1, 0.5 * h), J, L);  // eqs 28-29
      const Quat k3 = derivative(shifted(k2, 0.5 * h), J, L);  // eqs 30-31
      const Quat k4 = derivative(shifted(k3, h), J, L);        // eqs 32-33
      Quat next = q;
      next.coeffs() += (h / 6.0) * (k1.coeffs() + 2.0 * k2.coeffs() + 2.0 * k3.coeffs() + k4.coeffs());
      world.q[i] = next.normalized();                          // eq 26
      world.sync_angular_velocity(i);
    }
  }

  bool needs_end_torque() const override { return true; }
  void end_step(World& world, const Positions& torque, double h) override {
    closing_half_kick(world, torque, h);
  }
};

}  // namespace
STEPWISE_REGISTER_ROTATION("rk4", RotationRk4);
}  // namespace stepwise
