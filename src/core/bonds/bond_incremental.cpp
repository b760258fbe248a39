// The classical incremental bond (Potyondy & Cundall 2004 style), for comparison with Wang's:
// shear displacement and relative rotation increments from relative velocities each step,
// accumulated as force and moments and rotated along with the bond axis.
#include <cmath>

#include "core/bonds/bond_common.hpp"

namespace stepwise {
namespace {

// Keeps a vector perpendicular to the new axis n with its old length (the rotation of the
// accumulated shear force and bending moment with the bond).
Vec3 onto_plane(const Vec3& v, const Vec3& n) {
  const Vec3 in_plane = v - v.dot(n) * n;
  const double length = in_plane.norm();
  return length > 0 ? Vec3(in_plane * (v.norm() / length)) : Vec3::Zero();
}

class IncrementalBond final : public BondModel {
 public:
  using BondModel::BondModel;
  std::string kind() const override { return "bond-incremental"; }
  std::unique_ptr<ForceModel> clone() const override {
    return std::make_unique<IncrementalBond>(*this);
  }

  void apply(const StateView& s, ForceSums& out, const EvalContext& ctx) override {
    for (Bond& b : bonds_) {
      if (b.broken) continue;
      const Vec3 r_f = s.x.col(b.i) - s.x.col(b.j);
      const double length = r_f.norm(), rest_length = b.r0.norm();
      const Vec3 n = r_f / length;
      const double dt = std::isfinite(b.committed_time) ? ctx.time - b.committed_time : 0.0;
      const Vec3 wi = s.w.col(b.i), wj = s.w.col(b.j);
      // Increments since the last committed step: contact-point slip and relative rotation.
      const Vec3 v_c = s.v.col(b.i) - s.v.col(b.j) - (wi + wj).cross(0.5 * r_f);
      const Vec3 slip = (v_c - v_c.dot(n) * n) * dt;
      const Vec3 turn = (wi - wj) * dt;

      const Vec3 turn_n = turn.dot(n) * n;
      const Vec3 shear = onto_plane(b.shear_force, n) + k_.ks * slip;
      const Vec3 twist = b.twist_moment.dot(n) * n + k_.kt * turn_n;
      const Vec3 bend = onto_plane(b.bend_moment, n) + k_.kb * (turn - turn_n);
      const double stretch = length - rest_length;
      const Vec3 f_j = k_.kr * stretch * n + shear;
      const Vec3 tau_j = twist + bend + (0.5 * r_f).cross(shear);
      const double energy = 0.5 * k_.kr * stretch * stretch + 0.5 * shear.squaredNorm() / k_.ks +
                            0.5 * twist.squaredNorm() / k_.kt + 0.5 * bend.squaredNorm() / k_.kb;
      if (ctx.commit) {
        b.shear_force = shear;
        b.twist_moment = twist;
        b.bend_moment = bend;
        b.committed_time = ctx.time;
        b.report = {b.i,          b.j,          stretch,          shear.norm() / k_.ks,
                    twist.dot(n) / k_.kt,        bend.norm() / k_.kb, 0.0, k_.kr * stretch,
                    shear.norm(), twist.dot(n), bend.norm(), false};
        if (check_strength(b, energy, ctx)) continue;
      }
      add_pair(out, s, b, f_j, tau_j);
      add_damping(out, s, b, n);
      out.potential += energy;
    }
  }
};

}  // namespace
STEPWISE_REGISTER_FORCE("bond-incremental", IncrementalBond);
}  // namespace stepwise
