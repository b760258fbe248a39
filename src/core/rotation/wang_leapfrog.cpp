// Wang (2008) section 3: leap-frog on the body-frame Euler equations with the angular velocity at
// half steps and q' = 1/2 Q0(q) Omega, steps 1-8 of the paper, q renormalised every step.
#include <vector>

#include "core/rotation_scheme.hpp"
#include "core/world.hpp"

namespace stepwise {
namespace {

Quat times_body_rate(const Quat& q, const Vec3& w_b) {  // Q0(q) Omega = q (0, w_b)
  return q * Quat(0, w_b.x(), w_b.y(), w_b.z());
}

class WangLeapfrog final : public RotationScheme {
 public:
  MethodInfo info() const override {
    return {"wang-leapfrog", 2, false, false, 1,
            "Wang (2008): leap-frog with body angular velocity at half steps; the quaternion is "
            "advanced with its mid-step derivative. Second order.",
            "w_b(t) = w_b(t-h/2) + h/2 dw_b(t)\nw_b(t+h/2) = w_b(t-h/2) + h dw_b(t)\n"
            "q(t+h/2) = q(t) + h/2 q'(t),  q' = 1/2 Q0(q) Omega\nq(t+h) = q(t) + h q'(t+h/2), "
            "renormalised"};
  }

  void begin_step(World& world, const Positions& torque, double h) override {
    const int n = world.size();
    if (half_.cols() != n) {
      half_.setZero(3, n);
      primed_.assign(n, false);
    }
    for (int i = 0; i < n; ++i) {
      if (!rotates_freely(world, i)) {
        advance_driven_orientation(world, i, h);
        continue;
      }
      const Vec3 I = world.rotational_inertia(i);
      const Quat q = world.q[i];
      const Vec3 tau_b = q.conjugate() * torque.col(i);
      auto rate = [&](const Vec3& w_b) {  // Euler's equations (paper eq 3)
        return Vec3((tau_b - w_b.cross(I.cwiseProduct(w_b))).cwiseQuotient(I));
      };
      Vec3 w_now;  // step 2: w_b(t)
      if (primed_[i]) {
        const Vec3 w_half = half_.col(i);
        const Vec3 predicted = w_half + 0.5 * h * rate(w_half);
        w_now = w_half + 0.5 * h * rate(predicted);
      } else {
        w_now = q.conjugate() * world.w.col(i);
      }
      const Vec3 dw = rate(w_now);
      const Vec3 w_next_half = w_now + 0.5 * h * dw;              // step 4 (eq 8)
      Quat q_half = q;                                            // step 3, 5 (eqs 4, 6)
      q_half.coeffs() += 0.25 * h * times_body_rate(q, w_now).coeffs();
      const Quat dq_half = times_body_rate(q_half, w_next_half);  // step 6, half of eq 4
      Quat q_next = q;
      q_next.coeffs() += 0.5 * h * dq_half.coeffs();              // step 7 (eq 5)
      world.q[i] = q_next.normalized();                           // step 8
      half_.col(i) = w_next_half;
      primed_[i] = true;
      world.L.col(i) = world.q[i] * I.cwiseProduct(w_next_half);
      world.sync_angular_velocity(i);
    }
  }

  bool needs_end_torque() const override { return true; }

  // Reports a synchronous w_b(t+h) to the World (energies, output); the half-step value stays
  // the scheme's state.
  void end_step(World& world, const Positions& torque, double h) override {
    for (int i = 0; i < world.size(); ++i) {
      if (!rotates_freely(world, i)) continue;
      const Vec3 I = world.rotational_inertia(i);
      const Vec3 tau_b = world.q[i].conjugate() * torque.col(i);
      auto rate = [&](const Vec3& w_b) {
        return Vec3((tau_b - w_b.cross(I.cwiseProduct(w_b))).cwiseQuotient(I));
      };
      const Vec3 w_half = half_.col(i);
      const Vec3 predicted = w_half + 0.5 * h * rate(w_half);
      const Vec3 w_sync = w_half + 0.5 * h * rate(predicted);
      world.L.col(i) = world.q[i] * I.cwiseProduct(w_sync);
      world.sync_angular_velocity(i);
    }
  }

  void reset() override { primed_.assign(primed_.size(), false); }
  void save_state(ParamTable& out) const override {
    std::vector<double> primed(primed_.begin(), primed_.end());
    out.set("primed", primed);
    if (!primed_.empty()) out.set("half", flatten(half_));
  }
  void load_state(const ParamTable& in) override {
    const std::vector<double> primed = in.numbers("primed", {});
    primed_.assign(primed.begin(), primed.end());
    if (primed_.empty()) return;
    half_ = unflatten(in.numbers("half"), 3, int(primed_.size()), in.where() + " half");
  }

 private:
  Positions half_;
  std::vector<bool> primed_;
};

}  // namespace
STEPWISE_REGISTER_ROTATION("wang-leapfrog", WangLeapfrog);
}  // namespace stepwise
