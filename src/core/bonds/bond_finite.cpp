// Wang (2008): the finite-rotation bond. Forces and torques come from the total relative motion
// since bonding (not increments): normal and translational shear from r_c = q* r_f q (eqs 11-15),
// twist and bend from the sequence-independent decomposition of g = h* (q* p) h (eqs 16-26).
#include <cmath>

#include "core/bonds/bond_common.hpp"

namespace stepwise {
namespace {

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
      const Quat& p = world.q[b.i];
      const Vec3 r_c = q.conjugate() * Vec3(s.x.col(b.i) - s.x.col(b.j));  // eq 11
      const double length = r_c.norm(), rest_length = b.r0.norm();
      const Vec3 f_normal = k_.kr * (length - rest_length) / length * r_c;  // eq 12
      // Translational shear (eqs 14, 15): gamma is the angle between r0 and r_c.
      const Vec3 normal_plane = r_c.cross(b.r0);
      const double gamma = std::atan2(normal_plane.norm(), r_c.dot(b.r0));
      Vec3 slip_t = Vec3::Zero(), torque_axis = Vec3::Zero();
      if (normal_plane.norm() > 1e-14 * length * rest_length) {
        slip_t = rest_length * gamma * r_c.cross(normal_plane).normalized();
        torque_axis = (-normal_plane).normalized();
      }
      // Relative rotation in the bond's primed frame and its decomposition (eqs 20-26).
      const Quat g = b.h.conjugate() * (q.conjugate() * p * b.rest.conjugate()) * b.h;
      const BondAngles a = decompose_rotation(g);
      // Twisting and bending torques on body 2: eq 16 plus the coupling that keeps them conservative.
      const Vec3 tau_rotation = rotation_energy_gradient(g, a, k_.kt, k_.kb);
      const Vec3 slip_r = -0.5 * rest_length * Vec3(a.bend_x, a.bend_y, 0);
      const Vec3 tau_shear_r = 0.25 * k_.ks * rest_length * rest_length * Vec3(a.bend_y, -a.bend_x, 0);
      const Vec3 tau_shear_t = 0.5 * length * k_.ks * slip_t.norm() * torque_axis;
      // The two shear forces load one spring at the contact point: its stretch is the sum of the
      // translational and the rotated rotational slip. Back to body 2's frame by h (eq 17).
      const Vec3 slip = slip_t + b.h * slip_r;
      const Vec3 f_shear = k_.ks * slip;
      const Vec3 f_body = f_normal + f_shear;
      const Vec3 tau_body = tau_shear_t + b.h * (tau_shear_r + tau_rotation);
      const double stretch = length - rest_length, shear = slip.norm();
      const double energy = 0.5 * (k_.kr * stretch * stretch + k_.ks * shear * shear +
                                   k_.kt * a.psi * a.psi + k_.kb * a.theta * a.theta);
      if (ctx.commit) {
        b.report = {b.i, b.j, stretch, shear, a.psi, a.theta, a.phi, k_.kr * stretch,
                    f_shear.norm(), k_.kt * a.psi, k_.kb * a.theta, false};
        if (check_strength(b, energy, ctx)) continue;
      }
      add_pair(out, s, b, q * f_body, q * tau_body);
      add_damping(out, s, b, (q * r_c).normalized());
      out.potential += energy;
    }
  }
};

}  // namespace
STEPWISE_REGISTER_FORCE("bond-finite", FiniteBond);
}  // namespace stepwise
