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

// r_c's turn gamma away from r0: u = r_c/|r_c|, c = r0.u, r0_perp = r0 - c u, and the ratio
// f = gamma / sin gamma (1 at gamma = 0).
struct ShearTurn {
  Vec3 u, r0_perp;
  double c, sin_gamma, gamma, ratio;
};
ShearTurn shear_turn(const Vec3& r_c, const Vec3& r0) {
  ShearTurn t;
  t.u = r_c.normalized();
  t.c = r0.dot(t.u);
  t.r0_perp = r0 - t.c * t.u;
  t.sin_gamma = t.r0_perp.norm() / r0.norm();
  t.gamma = std::atan2(t.r0_perp.norm(), t.c);
  t.ratio = t.sin_gamma > 1e-12 ? t.gamma / t.sin_gamma : 1.0;
  return t;
}

// Shear displacement of the contact point in body 2's frame: translational L0 gamma s_hat, written
// -(gamma / sin gamma) r0_perp so it is smooth at gamma = 0, plus the rotational -L0/2 theta
// (cos phi, sin phi, 0) carried back by h.
Vec3 shear_slip(const ShearTurn& t, const Vec3& r0, const Quat& h, const BondAngles& a) {
  return -t.ratio * t.r0_perp +
         h * Vec3(-0.5 * r0.norm() * a.bend_x, -0.5 * r0.norm() * a.bend_y, 0);
}

// The gradient of 1/2 ks |slip|^2, slip = T(r_c) + R(g): T = -f(gamma) r0_perp with f = gamma /
// sin gamma, R = h (-L0/2) (bend_x, bend_y, 0). With u = r_c/|r_c|, c = r0.u and D = f'/sin gamma,
//   dE/dr_c = ks (I - u u^T) w / |r_c|,  w = [D (slip.r0_perp)/L0 + f (slip.u)] r0 + f c slip,
//   dE/d delta = -ks L0/2 (h* slip)_xy . d(bend)/d delta.
// False where gamma or theta is near pi (there the numerical derivative below takes over).
bool add_shear_gradient(const ShearTurn& t, double length, const Bond& b, const Quat& g,
                        const BondAngles& a, const Vec3& slip, double ks, Vec3& d_position,
                        Vec3& d_rotation) {
  const double L0 = b.r0.norm(), c = t.c, gamma = t.gamma, f = t.ratio;
  const Vec3 &u = t.u, &r0_perp = t.r0_perp;
  Eigen::Matrix<double, 2, 3> bend;
  if ((c < 0 && t.sin_gamma < 1e-3) || !bend_jacobian(g, a, bend)) return false;
  double D;  // (sin gamma - gamma cos gamma) / sin^3 gamma, by its series where it cancels
  if (gamma < 0.1) {
    const double x = gamma * gamma;
    D = 1.0 / 3 +
        x * (2.0 / 15 +
             x * (2.0 / 63 + x * (4.0 / 675 + x * (2.0 / 2079 + x * (2764.0 / 19348875)))));
  } else {
    const double sg = std::sin(gamma);
    D = (sg - gamma * std::cos(gamma)) / (sg * sg * sg);
  }
  const Vec3 w = (D * slip.dot(r0_perp) / L0 + f * slip.dot(u)) * b.r0 + f * c * slip;
  d_position += ks / length * (w - u.dot(w) * u);
  const Vec3 local = b.h.conjugate() * slip;
  d_rotation -= 0.5 * ks * L0 * (local.x() * bend.row(0) + local.y() * bend.row(1)).transpose();
  return true;
}

// The same gradient by central differences (for the configurations above).
void add_shear_gradient_numerically(const Vec3& r_c, const Bond& b, const Quat& g,
                                    const BondAngles& a, double ks, Vec3& d_position,
                                    Vec3& d_rotation) {
  auto shear_energy = [&](const Vec3& rc, const BondAngles& ga) {
    return 0.5 * ks * shear_slip(shear_turn(rc, b.r0), b.r0, b.h, ga).squaredNorm();
  };
  const double step = 1e-6 * b.r0.norm(), turn = 1e-6;
  for (int k = 0; k < 3; ++k) {
    Vec3 e = Vec3::Zero();
    e(k) = step;
    d_position(k) += (shear_energy(r_c + e, a) - shear_energy(r_c - e, a)) / (2 * step);
    e(k) = turn;
    const Quat plus = quat::exp_map(e) * g, minus = quat::exp_map(-e) * g;
    d_rotation(k) += (shear_energy(r_c, decompose_rotation(plus)) -
                      shear_energy(r_c, decompose_rotation(minus))) /
                     (2 * turn);
  }
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
      const ShearTurn turn = shear_turn(r_c, b.r0);
      const Vec3 slip = shear_slip(turn, b.r0, b.h, a);
      const double energy = 0.5 * (k_.kr * stretch * stretch + k_.ks * slip.squaredNorm() +
                                   k_.kt * a.psi * a.psi + k_.kb * a.theta * a.theta);
      if (ctx.commit) {
        b.report = {b.i, b.j, stretch, slip.norm(), a.psi, a.theta, a.phi, k_.kr * stretch,
                    k_.ks * slip.norm(), k_.kt * a.psi, k_.kb * a.theta, false};
        if (check_strength(b, energy, ctx)) continue;
      }
      // dU/dr_c (body 2 frame) and dU/d(left rotation of g) (primed frame).
      Vec3 d_position = k_.kr * stretch / length * r_c;
      Vec3 d_rotation = rotation_energy_gradient(g, a, k_.kt, k_.kb);
      if (k_.ks > 0 &&
          !add_shear_gradient(turn, length, b, g, a, slip, k_.ks, d_position, d_rotation))
        add_shear_gradient_numerically(r_c, b, g, a, k_.ks, d_position, d_rotation);
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
