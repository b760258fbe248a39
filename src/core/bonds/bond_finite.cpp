// Wang (2008): the finite-rotation bond. Everything follows from the total relative motion since
// bonding (never increments): r_c = q* r_f q (eq 11) and g = h* (q* p) h, decomposed into twist
// psi, bend theta and bend plane phi (eqs 20-26). The six interactions store
//   U = 1/2 Kr (|r_c| - |r0|)^2 + 1/2 Ks |slip|^2 + 1/2 Kt psi^2 + 1/2 Kb theta^2,
// with slip the translational (eq 14) plus rotational (eq 16) shear displacement of the contact
// point. Forces and torques are the exact gradient of U; Wang's eqs 12-16 are its leading terms,
// and the exact form keeps the bond conservative under large combined twist and bend, where the
// paper's torque arms pump energy in and the chain flutters.
#include <cmath>

#include "core/bonds/bond_common.hpp"
#include "core/quaternion.hpp"

namespace stepwise {
namespace {

// Shear displacement of the contact point in body 2's frame: translational L0 gamma s_hat, written
// -(gamma / sin gamma) r0_perp so it is smooth at gamma = 0, plus the rotational -L0/2 theta
// (cos phi, sin phi, 0) carried back by h.
Vec3 shear_slip(const Vec3& r_c, const Vec3& r0, const Quat& h, const BondAngles& a) {
  const Vec3 unit = r_c.normalized();
  const Vec3 r0_perp = r0 - r0.dot(unit) * unit;
  const double sin_gamma = r0_perp.norm() / r0.norm();
  const double gamma = std::atan2(r0_perp.norm(), r0.dot(unit));
  const double ratio = sin_gamma > 1e-12 ? gamma / sin_gamma : 1.0;
  return -ratio * r0_perp + h * Vec3(-0.5 * r0.norm() * a.bend_x, -0.5 * r0.norm() * a.bend_y, 0);
}

class FiniteBond final : public BondModel {
 public:
  using BondModel::BondModel;
  std::string kind() const override { return "bond-finite"; }
  std::unique_ptr<ForceModel> clone() const override { return std::make_unique<FiniteBond>(*this); }

  void apply(const StateView& s, ForceSums& out, const EvalContext& ctx) override {
    const World& world = s.world;
    for (Bond& b : bonds_) {
      if (b.broken) continue;
      const Quat& q = world.q[b.j];
      const Vec3 r_c = q.conjugate() * Vec3(s.x.col(b.i) - s.x.col(b.j));
      const Quat g = b.h.conjugate() * (q.conjugate() * world.q[b.i] * b.rest.conjugate()) * b.h;
      const BondAngles a = decompose_rotation(g);
      const double length = r_c.norm(), rest_length = b.r0.norm();
      const double stretch = length - rest_length;
      const Vec3 slip = shear_slip(r_c, b.r0, b.h, a);
      const double energy = 0.5 * (k_.kr * stretch * stretch + k_.ks * slip.squaredNorm() +
                                   k_.kt * a.psi * a.psi + k_.kb * a.theta * a.theta);
      if (ctx.commit) {
        b.report = {b.i, b.j, stretch, slip.norm(), a.psi, a.theta, a.phi, k_.kr * stretch,
                    k_.ks * slip.norm(), k_.kt * a.psi, k_.kb * a.theta, false};
        if (check_strength(b, energy, ctx)) continue;
      }
      // dU/dr_c (body 2 frame) and dU/d(left rotation of g) (primed frame). The shear part is
      // differentiated numerically: it mixes gamma(r_c) with the bend vector of g.
      Vec3 d_position = k_.kr * stretch / length * r_c;
      Vec3 d_rotation = rotation_energy_gradient(g, a, k_.kt, k_.kb);
      if (k_.ks > 0) {
        auto shear_energy = [&](const Vec3& rc, const Quat& gq, const BondAngles& ga) {
          return 0.5 * k_.ks * shear_slip(rc, b.r0, b.h, ga).squaredNorm();
        };
        const double step = 1e-6 * rest_length, turn = 1e-6;
        for (int k = 0; k < 3; ++k) {
          Vec3 e = Vec3::Zero();
          e(k) = step;
          d_position(k) += (shear_energy(r_c + e, g, a) - shear_energy(r_c - e, g, a)) / (2 * step);
          e(k) = turn;
          const Quat plus = quat::exp_map(e) * g, minus = quat::exp_map(-e) * g;
          d_rotation(k) += (shear_energy(r_c, plus, decompose_rotation(plus)) -
                            shear_energy(r_c, minus, decompose_rotation(minus))) / (2 * turn);
        }
      }
      // Body 1 moves r_f and turns g from the left; body 2 turns both r_c and g the other way.
      const Vec3 force_on_j = q * d_position;
      const Vec3 torque_on_j = q * (r_c.cross(d_position) + b.h * d_rotation);
      add_pair(out, s, b, force_on_j, torque_on_j);
      add_damping(out, s, b, (q * r_c).normalized());
      out.potential += energy;
    }
  }
};

}  // namespace
STEPWISE_REGISTER_FORCE("bond-finite", FiniteBond);
}  // namespace stepwise
