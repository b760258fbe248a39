// Naive explicit Euler on Euler's equations and on q' = 1/2 q w_body, renormalised: the
// teaching example of how not to rotate (energy and |L| drift at first order).
#include "core/rotation_scheme.hpp"
#include "core/world.hpp"

namespace stepwise {
namespace {

class RotationEuler final : public RotationScheme {
 public:
  MethodInfo info() const override {
    return {"euler", 1, false, false, 1,
            "Explicit Euler on the body-frame Euler equations and on the quaternion derivative, "
            "renormalised each step. First order; a tumbling body gains energy.",
            "dw_b = I^-1 (tau_b - w_b x I w_b)\nq(n+1) = normalise(q + h/2 q w_b)\n"
            "w_b(n+1) = w_b + h dw_b"};
  }
  void begin_step(World& world, const Positions& torque, double h) override {
    for (int i = 0; i < world.size(); ++i) {
      if (!rotates_freely(world, i)) {
        advance_driven_orientation(world, i, h);
        continue;
      }
      const Vec3 I = world.rotational_inertia(i);
      const Mat3 R = world.q[i].toRotationMatrix();
      const Vec3 w_b = R.transpose() * world.w.col(i);
      const Vec3 tau_b = R.transpose() * torque.col(i);
      const Vec3 dw_b = (tau_b - w_b.cross(I.cwiseProduct(w_b))).cwiseQuotient(I);
      Quat dq = world.q[i] * Quat(0, w_b.x(), w_b.y(), w_b.z());
      world.q[i].coeffs() += 0.5 * h * dq.coeffs();
      world.q[i].normalize();
      const Vec3 w_new = w_b + h * dw_b;
      world.L.col(i) = world.q[i] * I.cwiseProduct(w_new);
      world.sync_angular_velocity(i);
    }
  }
};

}  // namespace
STEPWISE_REGISTER_ROTATION("euler", RotationEuler);
}  // namespace stepwise
