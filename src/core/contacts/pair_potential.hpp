#pragma once
// Conservative pair interactions between spheres that act only while they overlap (soft
// repulsion, WCA): the neighbour loop lives here, a model gives U(r) and -dU/dr for a pair whose
// surfaces touch at r = reach = r_i + r_j.
#include <cmath>

#include "core/contacts/neighbor_list.hpp"
#include "core/world.hpp"

namespace stepwise {

class PairPotential : public ForceModel {
 public:
  explicit PairPotential(const ParamTable& p)
      : list_(p.number("skin", 0.1)), spin_friction_(p.number("spin_friction", 0.0)) {
    if (!(list_.skin() >= 0)) throw InputError(p.where() + ": skin must be >= 0");
    if (!(spin_friction_ >= 0) || !std::isfinite(spin_friction_))
      throw InputError(p.where() + ": spin_friction must be finite and >= 0");
  }
  // The seed's tangential interaction f_t = mu (Omega_ij x r_ij), Omega_ij = (w_i + w_j) / 2,
  // acting at the contact point; its work goes through the per-body drag sums so the ledger
  // books it exactly (it may feed energy in as well as take it out).
  unsigned body_work() const override { return spin_friction_ > 0 ? unsigned{kDragWork} : 0u; }
  bool marks_drag() const override { return true; }
  bool marks_torque() const override { return true; }  // (torques only with their drag)
  bool names_bodies() const override { return list_.size() > 0; }

  // Energy and radial force magnitude (positive = repulsive) at distance r < reach.
  virtual void pair(double r, double reach, double& energy, double& force) const = 0;

  void apply(const StateView& s, ForceSums& out, const EvalContext&) override {
    const World& world = s.world;
    list_.update(s.x, world.radius);
    const auto& offsets = list_.offsets();
    const auto& neighbors = list_.neighbors();
    for (int i = 0; i < world.size(); ++i)
      for (int k = offsets[i]; k < offsets[i + 1]; ++k) {
        const int j = neighbors[k];
        const Vec3 d = s.x.col(i) - s.x.col(j);
        const double reach = world.radius(i) + world.radius(j), r2 = d.squaredNorm();
        if (r2 >= reach * reach) continue;
        const double r = std::sqrt(r2);
        double energy, force;
        pair(r, reach, energy, force);
        out.force.col(i) += force / r * d;
        out.force.col(j) -= force / r * d;
        out.potential += energy;
        ++out.contacts;
        if (spin_friction_ > 0) {
          const Vec3 spin = 0.5 * (s.w.col(i) + s.w.col(j));
          const Vec3 ft = spin_friction_ * spin.cross(d);
          const Vec3 normal = d / r;
          const Vec3 ti = (-world.radius(i) * normal).cross(ft);
          const Vec3 tj = (world.radius(j) * normal).cross(-ft);
          out.force.col(i) += ft;
          out.force.col(j) -= ft;
          out.torque.col(i) += ti;
          out.torque.col(j) += tj;
          out.drag_force.col(i) += ft;
          out.drag_force.col(j) -= ft;
          out.drag_torque.col(i) += ti;
          out.drag_torque.col(j) += tj;
          out.mark_drag(i), out.mark_drag(j);
        }
      }
  }
  bool jacobian(const StateView&, Triplets&, Triplets&) const override { return false; }
  // The list's pairs that overlap at `s` or nearly.
  bool coupled_pairs(const StateView& s, std::vector<std::pair<int, int>>& out) const override {
    if (list_.stale(s.world.size())) return false;
    list_.append_near_pairs(s.x, s.world.radius, kCoupledReach, out);
    return true;
  }
  // Stiffness by the pair's curvature near contact (for the critical time step).
  double max_frequency(const World& world) const override {
    if (world.size() == 0) return 0;
    const double reach = 2 * world.radius.minCoeff(), h = 1e-4 * reach;
    double e, f_in, f_out;
    pair(reach * 0.95 - h, reach, e, f_in);
    pair(reach * 0.95 + h, reach, e, f_out);
    return std::sqrt(std::abs(f_in - f_out) / (2 * h) / (0.5 * world.mass.minCoeff()));
  }

 protected:
  void save_common(ParamTable& out) const {
    out.set("skin", list_.skin());
    if (spin_friction_ > 0) out.set("spin_friction", spin_friction_);
  }
  NeighborList list_;
  double spin_friction_;
};

}  // namespace stepwise
